/* The read window: article bytes JS has in memory for an open handle, readable by FUSE threads without JS. */
#ifndef SPOOL_WINDOW_H
#define SPOOL_WINDOW_H

#include <node_api.h>
#include <pthread.h>
#include <stdint.h>
#include <stddef.h>

typedef struct span {
  uint64_t off;
  uint64_t len;
  const uint8_t *data;
  napi_ref ref; /* keeps the JS buffer alive while published; created and deleted on the JS thread only */
} span_t;

typedef struct window {
  uint64_t fh;
  uint64_t size; /* file size: reads past it are short, as the kernel expects */
  pthread_mutex_t mu;
  span_t *spans; /* sorted by off, never overlapping */
  size_t count, cap;
  uint64_t furthest; /* end of the furthest read served natively since JS last took it (0: none) */
  uint64_t served;   /* bytes served natively since JS last took them (the read handle's count; atomic) */
  uint64_t notify_lo, notify_hi; /* the span the last wake-up was in: reads leaving it wake JS again */
  int notify_pending; /* a progress call is queued and JS has not taken it yet */
  struct window *next;
} window_t;

#define WINDOW_BUCKETS 64

typedef struct table {
  pthread_rwlock_t lock; /* readers: lookups and copies; writer: adding or removing a window */
  window_t *buckets[WINDOW_BUCKETS];
  /* counters, updated with atomics */
  uint64_t native_reads, native_bytes, js_reads;
} table_t;

/* Result of window_read: bytes copied (>= 0), or WINDOW_MISS when some byte is not published. */
#define WINDOW_MISS (-1)

table_t *table_new(void);
/* Copies [off, off+len) (clamped to the file size) into dst when all of it is published. `notify` is set to 1
 * when the caller should wake JS (first native read since JS last took the progress). Any thread. */
int64_t window_read(table_t *t, uint64_t fh, uint64_t off, size_t len, char *dst, int *notify);
/* JS thread only. */
int window_open(table_t *t, uint64_t fh, uint64_t size);
int window_publish(napi_env env, table_t *t, uint64_t fh, uint64_t off, const uint8_t *data, uint64_t len,
                   napi_value buffer);
int window_retire(napi_env env, table_t *t, uint64_t fh, uint64_t off);
int window_close(napi_env env, table_t *t, uint64_t fh);
/* End of the furthest read served natively since the last take (0 if none), and re-arms the wake-up; -1 if
 * there is no such window. Reset on each take, so after a seek JS hears where the reader is now. */
int64_t window_take_progress(table_t *t, uint64_t fh);
/* Bytes served natively since the last take (0 if none); -1 if there is no such window. */
int64_t window_take_served(table_t *t, uint64_t fh);
void table_free(napi_env env, table_t *t);

#endif
