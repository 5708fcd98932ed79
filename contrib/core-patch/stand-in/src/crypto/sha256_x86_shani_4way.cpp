// STAND-IN, NOT FOR UPSTREAM: sha256bench's contrib/core-patch.sh puts this
// file in the series only when the exported kernel is missing (it says so
// loudly). It gives the glue something to compile and test against: four
// SHA256D64 inputs done as two calls of Core's SHA-NI 2-way kernel, so it is
// exactly as fast as the 2-way path and measures nothing.
// The real file (contrib/core-export.py) provides the same function.

#if defined(ENABLE_SSE41) && defined(ENABLE_X86_SHANI)

namespace sha256d64_x86_shani {
void Transform_2way(unsigned char* out, const unsigned char* in);

void Transform_4way(unsigned char* out, const unsigned char* in)
{
    Transform_2way(out, in);
    Transform_2way(out + 64, in + 128);
}
} // namespace sha256d64_x86_shani

#endif
