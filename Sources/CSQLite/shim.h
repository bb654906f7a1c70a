#ifndef SOCLOAD_CSQLITE_SHIM_H
#define SOCLOAD_CSQLITE_SHIM_H

#include <sqlite3.h>

// Swift cannot call C variadic functions. Each wrapper below exists only because the
// function it wraps is variadic; it fixes the argument types for the options we use.

/// sqlite3_db_config for the (int, int*) options such as SQLITE_DBCONFIG_DQS_DML.
static inline int socload_sqlite3_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type socload_sqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

static inline sqlite3_destructor_type socload_sqlite3_static(void) {
    return SQLITE_STATIC;
}

#endif
