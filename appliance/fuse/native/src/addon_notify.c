/*
 * invalidate(mount, paths, done): tells the kernel to forget what it cached about paths that changed in the tree
 * (a file removed, moved or replaced), so a stat through the mount asks us again instead of trusting the entry for
 * up to entry_timeout / attr_timeout (rclone.dir_cache_time).
 *
 * Never on the JS thread, never on a FUSE thread: the kernel may hold the inode or its parent locked for a request
 * that is waiting for JS to answer (a lookup, a read), and a notification waits for that lock. On the JS thread that
 * is a deadlock; on libuv's thread pool (napi_async_work) it only waits until JS has answered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mount.h"

typedef struct {
  mount_t *m;
  char **paths;
  int *results;
  uint32_t n;
  napi_ref done;
  napi_async_work work;
} inval_t;

/* Thread pool. fuse_invalidate_path: 0, or -ENOENT when the kernel holds nothing for that path (nothing to do). */
static void run(napi_env env, void *data) {
  (void)env;
  inval_t *w = data;
  pthread_rwlock_rdlock(&w->m->notify_lock);
  int closed = __atomic_load_n(&w->m->notify_closed, __ATOMIC_ACQUIRE) || !w->m->fuse;
  for (uint32_t i = 0; i < w->n; i++)
    w->results[i] = closed || !w->paths[i] ? -ENOTCONN : fuse_invalidate_path(w->m->fuse, w->paths[i]);
  pthread_rwlock_unlock(&w->m->notify_lock);
}

/* JS thread: done(results) with one result per path, then free everything. */
static void finish(napi_env env, napi_status status, void *data) {
  inval_t *w = data;
  napi_value cb, undef, arr;
  if (napi_get_reference_value(env, w->done, &cb) == napi_ok && cb) {
    napi_get_undefined(env, &undef);
    napi_create_array_with_length(env, w->n, &arr);
    for (uint32_t i = 0; i < w->n; i++) {
      napi_value v;
      napi_create_int32(env, status == napi_ok ? w->results[i] : -ECANCELED, &v);
      napi_set_element(env, arr, i, v);
    }
    if (napi_call_function(env, undef, cb, 1, &arr, NULL) != napi_ok) {
      napi_value e;
      napi_get_and_clear_last_exception(env, &e);
    }
  }
  napi_delete_reference(env, w->done);
  napi_delete_async_work(env, w->work);
  for (uint32_t i = 0; i < w->n; i++) free(w->paths[i]);
  free(w->paths);
  free(w->results);
  free(w);
}

napi_value invalidate_js(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value a[3], name;
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  mount_t *m = NULL;
  uint32_t n = 0;
  bool is_array = false;
  napi_valuetype cb_type = napi_undefined;
  if (argc == 3) napi_typeof(env, a[2], &cb_type);
  if (argc < 3 || napi_get_value_external(env, a[0], (void **)&m) != napi_ok || !m ||
      napi_is_array(env, a[1], &is_array) != napi_ok || !is_array || cb_type != napi_function) {
    napi_throw_error(env, NULL, "invalidate: expected (mount, paths, done)");
    return NULL;
  }
  napi_get_array_length(env, a[1], &n);
  inval_t *w = calloc(1, sizeof(inval_t));
  w->m = m;
  w->n = n;
  w->paths = calloc(n ? n : 1, sizeof(char *));
  w->results = calloc(n ? n : 1, sizeof(int));
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    size_t len = 0;
    napi_get_element(env, a[1], i, &v);
    if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) continue; /* not a string: -ENOTCONN */
    w->paths[i] = malloc(len + 1);
    if (w->paths[i]) napi_get_value_string_utf8(env, v, w->paths[i], len + 1, &len);
  }
  napi_create_reference(env, a[2], 1, &w->done);
  napi_create_string_utf8(env, "spool-fuse-invalidate", NAPI_AUTO_LENGTH, &name);
  napi_create_async_work(env, NULL, name, run, finish, w, &w->work);
  napi_queue_async_work(env, w->work);
  return NULL;
}
