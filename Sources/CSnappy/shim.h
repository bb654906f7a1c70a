#ifndef SOCLOAD_CSNAPPY_SHIM_H
#define SOCLOAD_CSNAPPY_SHIM_H

// snappy's C interface, for Parquet pages (`export --compression snappy`).
#include <snappy-c.h>

#endif
