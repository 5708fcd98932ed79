// SPDX-License-Identifier: MIT
#include <bench/output.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace benchmark {
namespace {

std::string DirName(const std::string& path)
{
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    if (slash == 0) return "/";
    return path.substr(0, slash);
}

std::string BaseName(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The file a rename into `path` should replace: an existing path (a symlink
// followed to its target) resolved, else the resolved directory + the name.
std::string Resolve(const std::string& path)
{
    char buf[PATH_MAX];
    if (realpath(path.c_str(), buf)) return buf;
    if (realpath(DirName(path).c_str(), buf)) {
        std::string dir = buf;
        return (dir == "/" ? "" : dir) + "/" + BaseName(path);
    }
    return path;
}

// The temporaries reserved now, for the signal handler below: plain buffers and
// flags, since a handler may use nothing that allocates or locks.
constexpr int TMP_SLOTS = 4;
char g_tmp_path[TMP_SLOTS][PATH_MAX + 32];
volatile std::sig_atomic_t g_tmp_live[TMP_SLOTS];
const int CLEANUP_SIGNALS[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

// A run stopped by one of CLEANUP_SIGNALS leaves no temporary behind; the
// signal is then re-raised with its default action, so the exit status still
// says "killed by signal". unlink, signal and raise are async-signal-safe.
extern "C" void RemoveTemporariesAndDie(int sig)
{
    for (int i = 0; i < TMP_SLOTS; ++i) {
        if (g_tmp_live[i]) unlink(g_tmp_path[i]);
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

void InstallCleanupHandlers()
{
    static bool installed = false;
    if (installed) return;
    installed = true;
    for (int sig : CLEANUP_SIGNALS) {
        struct sigaction old {};
        // A signal ignored by whoever started us (nohup, a background job) stays ignored.
        if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = RemoveTemporariesAndDie;
        sigemptyset(&sa.sa_mask);
        for (int other : CLEANUP_SIGNALS) sigaddset(&sa.sa_mask, other);
        sigaction(sig, &sa, nullptr);
    }
}

// Returns the slot now holding `path`, or -1 when it does not fit (never in practice).
int Track(const std::string& path)
{
    InstallCleanupHandlers();
    if (path.size() >= sizeof(g_tmp_path[0])) return -1;
    for (int i = 0; i < TMP_SLOTS; ++i) {
        if (g_tmp_live[i]) continue;
        std::memcpy(g_tmp_path[i], path.c_str(), path.size() + 1);
        std::atomic_signal_fence(std::memory_order_seq_cst); // the path is whole before the flag is set
        g_tmp_live[i] = 1;
        return i;
    }
    return -1;
}

void Untrack(int slot)
{
    if (slot >= 0) g_tmp_live[slot] = 0;
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

} // namespace

bool SameFile(const std::string& a, const std::string& b)
{
    if (Resolve(a) == Resolve(b)) return true;
    struct stat sa, sb;
    return stat(a.c_str(), &sa) == 0 && stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

OutputFile::~OutputFile() { Discard(); }

void OutputFile::Discard()
{
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    if (!tmp_.empty()) unlink(tmp_.c_str());
    tmp_.clear();
    Untrack(slot_);
    slot_ = -1;
}

std::string OutputFile::Fail(const std::string& what, int err)
{
    Discard();
    return "cannot write " + option_ + "=" + path_ + ": " + what + (err ? std::string(": ") + std::strerror(err) : "");
}

std::string OutputFile::Open(const std::string& option, const std::string& path)
{
    option_ = option;
    path_ = path;
    if (path.empty() || path.back() == '/') return Fail("not a file name", 0);
    target_ = Resolve(path);
    struct stat st;
    if (stat(target_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        // A device or FIFO cannot be replaced by a rename, and /dev/full and
        // the like would swallow the results: refuse rather than half-write.
        return Fail("not a regular file (results are written to a temporary file beside it and renamed into place)", 0);
    }
    std::string templ = DirName(target_) + "/." + BaseName(target_) + ".tmp.XXXXXX";
    std::vector<char> name(templ.begin(), templ.end());
    name.push_back('\0');
    fd_ = mkstemp(name.data());
    if (fd_ < 0) return Fail("cannot create a file in " + DirName(target_), errno);
    tmp_ = name.data();
    slot_ = Track(tmp_);
    if (slot_ < 0) return Fail("temporary file name too long", 0);
    // mkstemp makes the file private; give it the mode a plain create would.
    const mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd_, 0666 & ~mask) != 0) return Fail("chmod", errno);
    return "";
}

std::string OutputFile::Write(const std::string& text)
{
    if (fd_ < 0) return Fail("not open", 0);
    const char* p = text.data();
    size_t left = text.size();
    while (left > 0) {
        const ssize_t n = write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return Fail("write", errno);
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    if (fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) return Fail("fsync", errno);
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) return Fail("close", errno);
    return "";
}

std::string OutputFile::Commit()
{
    if (fd_ >= 0 || tmp_.empty()) return Fail("not written", 0);
    if (rename(tmp_.c_str(), target_.c_str()) != 0) return Fail("rename into place", errno);
    // Only now: a signal before the rename must still find the temporary to remove.
    Untrack(slot_);
    slot_ = -1;
    tmp_.clear();
    return "";
}

} // namespace benchmark
