// SPDX-License-Identifier: MIT
// Preloaded (LD_PRELOAD) by contrib/core-patch.sh --ab into the runs of the
// benchmarks that have a large buffer (its PLACED list): every allocation of
// AB_PLACE_MIN bytes or more (default 4 MiB, more than a block can take)
// starts AB_PLACE_OFFSET bytes into a page of a mapping of its own, kept
// after free for the next request of the same size, as glibc's heap reuses a
// freed chunk. Everything else goes to glibc's malloc unchanged.
//
// Why: where glibc's heap puts such a buffer depends on everything the
// process allocated before it, so any patch can move it, and on some CPUs the
// kernel's copy from the page cache into it (read(2)) is slower or faster
// with its offset in the page (measured: doc/upstream.md). The driver draws
// one offset per pair and gives it to both sides, so a placement weighs on a
// pair, not on a side. glibc only: __libc_malloc and its kin are glibc's.
// Not covered: malloc_usable_size on a placed block (nothing the benchmarks
// run asks it), and aligned allocations, which stay glibc's.
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void* __libc_malloc(size_t n);
void* __libc_calloc(size_t count, size_t n);
void* __libc_realloc(void* p, size_t n);
void __libc_free(void* p);

enum { SLOTS = 16 };
struct Slot {
    char* at;    // what malloc returned; set once, before `used` counts the slot
    size_t size; // the request it was made for
    int busy;    // under the lock
};
static struct Slot slots[SLOTS];
static int used; // slots set so far (they are never unset: a mapping is kept)
static int lock_word;
static size_t offset, min_size = (size_t)4 << 20;
static int configured;

static void lock(void)
{
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE)) {
    }
}
static void unlock(void) { __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE); }

static size_t env_size(const char* name, size_t fallback)
{
    const char* s = getenv(name);
    if (!s || !*s) return fallback;
    char* end;
    const unsigned long v = strtoul(s, &end, 0);
    return *end ? fallback : v;
}

// Called with the lock held, or from the constructor before any thread.
static void configure(void)
{
    if (configured) return;
    offset = env_size("AB_PLACE_OFFSET", 0) % 4096;
    min_size = env_size("AB_PLACE_MIN", (size_t)4 << 20);
    configured = 1;
}
__attribute__((constructor)) static void start(void) { configure(); }

// A placed block of n bytes, or null where no slot is free (then glibc's
// malloc takes it). n is at least min_size.
static void* placed(size_t n)
{
    void* got = NULL;
    lock();
    configure();
    const int count = __atomic_load_n(&used, __ATOMIC_RELAXED);
    for (int i = 0; i < count && !got; ++i) {
        if (!slots[i].busy && slots[i].size == n) {
            slots[i].busy = 1;
            got = slots[i].at;
        }
    }
    if (!got && count < SLOTS) {
        char* base = mmap(NULL, n + offset, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base != MAP_FAILED) {
            slots[count] = (struct Slot){base + offset, n, 1};
            __atomic_store_n(&used, count + 1, __ATOMIC_RELEASE);
            got = slots[count].at;
        }
    }
    unlock();
    return got;
}

// The slot holding p, or -1: without the lock, as slots are only added (most
// frees are of glibc's blocks and must stay as cheap as glibc's).
static int slot_of(const void* p)
{
    const int count = __atomic_load_n(&used, __ATOMIC_ACQUIRE);
    for (int i = 0; i < count; ++i) {
        if (p && slots[i].at == p) return i;
    }
    return -1;
}

void* malloc(size_t n)
{
    void* p = n >= min_size ? placed(n) : NULL;
    return p ? p : __libc_malloc(n);
}

void* calloc(size_t count, size_t n)
{
    if (n && count > (size_t)-1 / n) {
        errno = ENOMEM;
        return NULL;
    }
    void* p = count * n >= min_size ? placed(count * n) : NULL;
    if (!p) return __libc_calloc(count, n);
    return memset(p, 0, count * n); // a reused block holds its last contents
}

void free(void* p)
{
    const int i = slot_of(p);
    if (i < 0) {
        __libc_free(p);
        return;
    }
    lock();
    slots[i].busy = 0;
    unlock();
}

void* realloc(void* p, size_t n)
{
    const int i = slot_of(p);
    if (i < 0) return __libc_realloc(p, n);
    if (n == 0) {
        free(p);
        return NULL;
    }
    void* q = malloc(n);
    if (!q) return NULL;
    const size_t old = slots[i].size;
    memcpy(q, p, old < n ? old : n);
    free(p);
    return q;
}
