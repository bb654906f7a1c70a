/*
 * The C bound of a SQLite load (issue 46): the least a loader can do to put a CSV file's rows
 * into a table. The whole file is read into memory first (not timed apart: reading is part of a
 * load), then one prepared INSERT is bound and stepped per record, inside one transaction, with
 * synchronous FULL and the rollback journal (what a first load into a new file uses). Fields are
 * bound as text (the column's affinity converts them, as the sqlite3 shell's .import does); an
 * empty field is bound as NULL, as socload stores it. No index is made.
 *
 * With KEY (a column name) it also keeps socload's promises the plain bound has not: a row
 * fingerprint per record (a key hash, a content hash, the row number and the key's text, FNV-1a)
 * in a second table, then the unique key on KEY and the fingerprints' index, all in the same
 * transaction: the least a loader keeping them can do on one thread.
 *
 *   cc -O2 bench/cbound.c -lsqlite3 -o cbound
 *   ./cbound DB SCHEMA.sql FILE.csv TABLE [KEY]
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "cbound: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
    exit(1);
}

static char *read_all(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)size + 1);
    if (!bytes || fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(1); }
    fclose(file);
    bytes[size] = 0;
    *length = (size_t)size;
    return bytes;
}

/* Reads one RFC 4180 field at *at, unquoting it in place; returns its length, sets *end_of_record. */
static size_t next_field(char **at, char *end, char **start, int *end_of_record) {
    char *p = *at, *out;
    *start = p;
    if (p < end && *p == '"') {
        out = p;
        *start = p;
        p++;
        while (p < end) {
            if (*p == '"') {
                if (p + 1 < end && p[1] == '"') { *out++ = '"'; p += 2; continue; }
                p++;
                break;
            }
            *out++ = *p++;
        }
        size_t length = (size_t)(out - *start);
        *end_of_record = (p >= end || *p == '\n' || *p == '\r');
        if (p < end && *p == '\r') p++;
        if (p < end) p++;
        *at = p;
        return length;
    }
    while (p < end && *p != ',' && *p != '\n' && *p != '\r') p++;
    size_t length = (size_t)(p - *start);
    *end_of_record = (p >= end || *p != ',');
    if (p < end && *p == '\r') p++;
    if (p < end) p++;
    *at = p;
    return length;
}

static unsigned long long fnv1a(unsigned long long hash, const char *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) { hash ^= (unsigned char)bytes[i]; hash *= 1099511628211ULL; }
    return hash;
}

static void exec(sqlite3 *db, const char *sql) {
    if (sqlite3_exec(db, sql, 0, 0, 0) != SQLITE_OK) fail(db, sql);
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) { fprintf(stderr, "usage: cbound DB SCHEMA.sql FILE.csv TABLE [KEY]\n"); return 2; }
    const char *key = argc == 6 ? argv[5] : 0;
    size_t schema_length, csv_length;
    char *schema = read_all(argv[2], &schema_length);
    char *csv = read_all(argv[3], &csv_length);
    char *end = csv + csv_length, *at = csv, *field;
    sqlite3 *db;
    if (sqlite3_open(argv[1], &db) != SQLITE_OK) fail(db, "open");
    if (sqlite3_exec(db, "PRAGMA synchronous=FULL", 0, 0, 0) != SQLITE_OK) fail(db, "pragma");
    if (sqlite3_exec(db, schema, 0, 0, 0) != SQLITE_OK) fail(db, "schema");

    int columns = 0, last = 0, key_index = -1;
    while (!last) {   /* the header: how many columns, and where the key is */
        size_t length = next_field(&at, end, &field, &last);
        if (key && length == strlen(key) && memcmp(field, key, length) == 0) key_index = columns;
        columns++;
    }
    if (key && key_index < 0) { fprintf(stderr, "cbound: no column %s\n", key); return 2; }
    size_t sql_length = strlen(argv[4]) + 40 + 2 * (size_t)columns;
    char *sql = malloc(sql_length), *q;
    q = sql + sprintf(sql, "INSERT INTO \"%s\" VALUES (", argv[4]);
    for (int i = 0; i < columns; i++) { if (i) *q++ = ','; *q++ = '?'; }
    strcpy(q, ")");
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, sql, -1, &insert, 0) != SQLITE_OK) fail(db, "prepare");
    exec(db, "BEGIN");
    sqlite3_stmt *fingerprint = 0;
    if (key) {
        exec(db, "CREATE TABLE cbound_fingerprints (kh INTEGER, h INTEGER, r INTEGER, k1 TEXT NOT NULL)");
        if (sqlite3_prepare_v2(db, "INSERT INTO cbound_fingerprints VALUES (?,?,?,?)", -1, &fingerprint, 0) != SQLITE_OK)
            fail(db, "prepare");
    }
    long rows = 0;
    while (at < end) {
        int index = 0;
        unsigned long long content = 14695981039346656037ULL;
        last = 0;
        while (!last) {
            size_t length = next_field(&at, end, &field, &last);
            if (++index > columns) continue;
            if (length == 0) sqlite3_bind_null(insert, index);
            else sqlite3_bind_text(insert, index, field, (int)length, SQLITE_STATIC);
            if (fingerprint) {
                content = fnv1a(content, field, length);
                content = fnv1a(content, "\x1f", 1);
                if (index - 1 == key_index) {
                    sqlite3_bind_int64(fingerprint, 1, (sqlite3_int64)fnv1a(14695981039346656037ULL, field, length));
                    sqlite3_bind_text(fingerprint, 4, field, (int)length, SQLITE_STATIC);
                }
            }
        }
        for (; index < columns; index++) sqlite3_bind_null(insert, index + 1);
        if (sqlite3_step(insert) != SQLITE_DONE) fail(db, "insert");
        sqlite3_reset(insert);
        rows++;
        if (fingerprint) {
            sqlite3_bind_int64(fingerprint, 2, (sqlite3_int64)content);
            sqlite3_bind_int64(fingerprint, 3, rows);
            if (sqlite3_step(fingerprint) != SQLITE_DONE) fail(db, "fingerprint");
            sqlite3_reset(fingerprint);
        }
    }
    if (key) {
        char *sql_key = sqlite3_mprintf("CREATE UNIQUE INDEX cbound_key ON \"%w\" (\"%w\")", argv[4], key);
        exec(db, sql_key);
        sqlite3_free(sql_key);
        exec(db, "CREATE INDEX cbound_fingerprint_key ON cbound_fingerprints (kh, h)");
        sqlite3_finalize(fingerprint);
    }
    exec(db, "COMMIT");
    sqlite3_finalize(insert);
    sqlite3_close(db);
    printf("%ld\n", rows);
    return 0;
}
