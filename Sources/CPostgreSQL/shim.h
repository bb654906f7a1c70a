#ifndef SOCLOAD_CPOSTGRESQL_H
#define SOCLOAD_CPOSTGRESQL_H
// libpq, PostgreSQL's C client library (Debian: libpq-dev). Nothing variadic is used from it.
#include <libpq-fe.h>
#endif
