/*
 * The read window. A FUSE thread serving a read takes the table lock (shared) and the window's mutex, checks that
 * every byte of the read is published, and copies it into the reply. Retiring a span takes the same mutex, so
 * once window_retire returns no FUSE thread is still copying from that buffer and JS may let it be reused.
 */
#define _GNU_SOURCE
#include "window.h"

#include <stdlib.h>
#include <string.h>

table_t *table_new(void) {
  table_t *t = calloc(1, sizeof(table_t));
  if (!t) return NULL;
  /* Writers first: with FUSE threads reading all the time, glibc's default (readers first) could keep a
   * closeWindow or openWindow on the JS thread waiting indefinitely. */
  pthread_rwlockattr_t attr;
  pthread_rwlockattr_init(&attr);
  pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
  pthread_rwlock_init(&t->lock, &attr);
  pthread_rwlockattr_destroy(&attr);
  return t;
}

static window_t **slot_of(table_t *t, uint64_t fh) { return &t->buckets[fh % WINDOW_BUCKETS]; }

/* Caller holds t->lock (shared or exclusive). */
static window_t *find(table_t *t, uint64_t fh) {
  for (window_t *w = *slot_of(t, fh); w; w = w->next)
    if (w->fh == fh) return w;
  return NULL;
}

/* Index of the first span ending after `off` (binary search; spans are sorted and disjoint). */
static size_t first_after(const window_t *w, uint64_t off) {
  size_t lo = 0, hi = w->count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (w->spans[mid].off + w->spans[mid].len <= off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

int64_t window_read(table_t *t, uint64_t fh, uint64_t off, size_t len, char *dst, int *notify) {
  int64_t res = WINDOW_MISS;
  *notify = 0;
  pthread_rwlock_rdlock(&t->lock);
  window_t *w = find(t, fh);
  if (w) {
    pthread_mutex_lock(&w->mu);
    uint64_t end = off >= w->size ? off : (len > w->size - off ? w->size : off + len);
    uint64_t pos = off;
    /* Check first, copy second: a miss leaves dst untouched. */
    size_t i = first_after(w, off), j = i;
    while (pos < end && j < w->count && w->spans[j].off <= pos) {
      pos = w->spans[j].off + w->spans[j].len;
      j++;
    }
    if (pos >= end) {
      uint64_t span_lo = off, span_hi = end;
      for (pos = off; pos < end; i++) {
        const span_t *s = &w->spans[i];
        span_lo = s->off;
        span_hi = s->off + s->len;
        uint64_t span_end = span_hi;
        uint64_t to = span_end < end ? span_end : end;
        memcpy(dst + (pos - off), s->data + (pos - s->off), to - pos);
        pos = to;
      }
      res = (int64_t)(end - off);
      if (end > w->furthest) w->furthest = end;
      __atomic_add_fetch(&w->served, end - off, __ATOMIC_RELAXED);
      /* JS only needs to hear when the reader enters another article (to retire behind it and fetch further):
       * one wake-up per span reached, not per read, and never a second one queued before JS took the first. */
      if ((end > w->notify_hi || off < w->notify_lo) && !w->notify_pending) {
        w->notify_pending = *notify = 1;
        w->notify_lo = span_lo;
        w->notify_hi = span_hi;
      }
    }
    pthread_mutex_unlock(&w->mu);
  }
  pthread_rwlock_unlock(&t->lock);
  if (res >= 0) {
    __atomic_add_fetch(&t->native_reads, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&t->native_bytes, (uint64_t)res, __ATOMIC_RELAXED);
  }
  return res;
}

int window_open(table_t *t, uint64_t fh, uint64_t size) {
  window_t *w = calloc(1, sizeof(window_t));
  if (!w) return -1;
  w->fh = fh;
  w->size = size;
  pthread_mutex_init(&w->mu, NULL);
  pthread_rwlock_wrlock(&t->lock);
  int exists = find(t, fh) != NULL;
  if (!exists) {
    w->next = *slot_of(t, fh);
    *slot_of(t, fh) = w;
  }
  pthread_rwlock_unlock(&t->lock);
  if (exists) {
    pthread_mutex_destroy(&w->mu);
    free(w);
    return -1;
  }
  return 0;
}

/* 0 published; -1 no window; -2 overlaps a published span (or out of memory); -3 past the end of the file. */
int window_publish(napi_env env, table_t *t, uint64_t fh, uint64_t off, const uint8_t *data, uint64_t len,
                   napi_value buffer) {
  napi_ref ref;
  if (napi_create_reference(env, buffer, 1, &ref) != napi_ok) return -2;
  int rc = 0;
  pthread_rwlock_rdlock(&t->lock);
  window_t *w = find(t, fh);
  if (!w) rc = -1;
  else {
    pthread_mutex_lock(&w->mu);
    size_t i = first_after(w, off);
    if (off + len > w->size) rc = -3;
    else if (len == 0 || (i < w->count && w->spans[i].off < off + len)) rc = -2;
    else if (w->count == w->cap) {
      size_t cap = w->cap ? w->cap * 2 : 16;
      span_t *grown = realloc(w->spans, cap * sizeof(span_t));
      if (!grown) rc = -2;
      else {
        w->spans = grown;
        w->cap = cap;
      }
    }
    if (rc == 0) {
      memmove(&w->spans[i + 1], &w->spans[i], (w->count - i) * sizeof(span_t));
      w->spans[i] = (span_t){off, len, data, ref};
      w->count++;
    }
    pthread_mutex_unlock(&w->mu);
  }
  pthread_rwlock_unlock(&t->lock);
  if (rc != 0) napi_delete_reference(env, ref);
  return rc;
}

/* 0 retired; -1 nothing published at `off`. */
int window_retire(napi_env env, table_t *t, uint64_t fh, uint64_t off) {
  napi_ref ref = NULL;
  pthread_rwlock_rdlock(&t->lock);
  window_t *w = find(t, fh);
  if (w) {
    pthread_mutex_lock(&w->mu);
    size_t i = first_after(w, off);
    if (i < w->count && w->spans[i].off == off) {
      ref = w->spans[i].ref;
      memmove(&w->spans[i], &w->spans[i + 1], (w->count - i - 1) * sizeof(span_t));
      w->count--;
    }
    pthread_mutex_unlock(&w->mu);
  }
  pthread_rwlock_unlock(&t->lock);
  if (!ref) return -1;
  napi_delete_reference(env, ref);
  return 0;
}

static void window_free(napi_env env, window_t *w) {
  for (size_t i = 0; i < w->count; i++)
    if (env) napi_delete_reference(env, w->spans[i].ref);
  free(w->spans);
  pthread_mutex_destroy(&w->mu);
  free(w);
}

int window_close(napi_env env, table_t *t, uint64_t fh) {
  pthread_rwlock_wrlock(&t->lock); /* waits for every FUSE thread copying from any window */
  window_t **p = slot_of(t, fh);
  while (*p && (*p)->fh != fh) p = &(*p)->next;
  window_t *w = *p;
  if (w) *p = w->next;
  pthread_rwlock_unlock(&t->lock);
  if (!w) return -1;
  window_free(env, w);
  return 0;
}

int64_t window_take_progress(table_t *t, uint64_t fh) {
  int64_t res = -1;
  pthread_rwlock_rdlock(&t->lock);
  window_t *w = find(t, fh);
  if (w) {
    pthread_mutex_lock(&w->mu);
    w->notify_pending = 0;
    res = (int64_t)w->furthest;
    w->furthest = 0;
    pthread_mutex_unlock(&w->mu);
  }
  pthread_rwlock_unlock(&t->lock);
  return res;
}

void table_free(napi_env env, table_t *t) {
  for (size_t b = 0; b < WINDOW_BUCKETS; b++) {
    window_t *w = t->buckets[b];
    while (w) {
      window_t *next = w->next;
      window_free(env, w);
      w = next;
    }
  }
  pthread_rwlock_destroy(&t->lock);
  free(t);
}

int64_t window_take_served(table_t *t, uint64_t fh) {
  int64_t res = -1;
  pthread_rwlock_rdlock(&t->lock);
  window_t *w = find(t, fh);
  /* Not under the window's mutex: a FUSE thread holds it while it copies up to 1 MiB, and the JS thread must not
   * wait for that (it delayed the read-ahead enough to cost a tenth of the native reads). */
  if (w) res = (int64_t)__atomic_exchange_n(&w->served, 0, __ATOMIC_RELAXED);
  pthread_rwlock_unlock(&t->lock);
  return res;
}
