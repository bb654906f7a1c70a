#ifndef SOCLOAD_CCURL_SHIM_H
#define SOCLOAD_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. Each
// wrapper below pins one argument type, so Swift sees an ordinary typed function.

static inline CURLcode socload_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode socload_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode socload_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode socload_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode socload_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// The body callback: libcurl calls it with each chunk of the response as it arrives.
typedef size_t (*socload_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode socload_curl_setopt_data_callback(CURL *handle, CURLoption option,
                                                         socload_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// The progress callback (CURLOPT_XFERINFOFUNCTION): returning non-zero aborts the transfer.
typedef int (*socload_curl_xferinfo_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode socload_curl_setopt_xferinfo_callback(CURL *handle,
                                                             socload_curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode socload_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode socload_curl_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode socload_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
