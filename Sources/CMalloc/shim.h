#ifndef SOCLOAD_CMALLOC_SHIM_H
#define SOCLOAD_CMALLOC_SHIM_H

// mallopt is glibc's, in malloc.h, which Swift's Glibc module does not show.
#include <malloc.h>

/// At most `count` malloc arenas for the process (glibc makes one per thread that allocates, up
/// to eight a core, and keeps what each frees).
static inline int socload_limit_malloc_arenas(int count) {
    return mallopt(M_ARENA_MAX, count);
}

#endif
