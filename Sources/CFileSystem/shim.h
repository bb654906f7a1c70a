#ifndef SOCLOAD_CFILESYSTEM_SHIM_H
#define SOCLOAD_CFILESYSTEM_SHIM_H

// renameat2 is a GNU extension (glibc 2.28 and later), which Swift's Glibc module does not show.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <stdio.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/// rename(from, to) that fails with EEXIST instead of replacing an existing `to`.
static inline int socload_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

#endif
