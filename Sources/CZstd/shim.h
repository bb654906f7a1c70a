#ifndef SOCLOAD_CZSTD_SHIM_H
#define SOCLOAD_CZSTD_SHIM_H

// zstd, for Parquet pages (`export --format parquet`, the default compression).
#include <zstd.h>

#endif
