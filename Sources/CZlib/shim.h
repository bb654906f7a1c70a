#ifndef SOCLOAD_CZLIB_SHIM_H
#define SOCLOAD_CZLIB_SHIM_H

#include <zlib.h>

// deflateInit2 and inflateInit2 are macros, which Swift cannot call: these pin them to the
// gzip format (windowBits 15 + 16), so Swift sees ordinary functions.

static inline int socload_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int socload_inflate_init_gzip(z_stream *stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
