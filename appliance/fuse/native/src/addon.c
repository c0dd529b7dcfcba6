/*
 * N-API surface of the FUSE 3 binding (see appliance/fuse/fuse.binding.ts for the typed view):
 *   createTable() -> table                        windows of published article bytes, one per open handle
 *   openWindow(table, fh, size) / closeWindow(table, fh)
 *   publish(table, fh, offset, bytes) -> code      0 ok, -1 no window, -2 overlap, -3 past end of file
 *   retire(table, fh, offset) -> code              0 ok, -1 nothing there
 *   takeProgress(table, fh) -> furthest byte served natively (-1: no window)
 *   takeServed(table, fh) -> bytes served natively since the last take (-1: no window)
 *   readWindow(table, fh, offset, length, target) -> bytes or -1 (the FUSE thread's own lookup, for tests)
 *   stats(table) -> [nativeReads, nativeBytes, jsReads]
 *   mount(table, mountpoint, options, dispatch, progress) -> mount
 *   reply(mount, id, result, a?, b?) -> answered
 *   unmount(mount, done)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mount.h"

#define CHECK(call)                                                                                                    \
  do {                                                                                                                 \
    if ((call) != napi_ok) return NULL;                                                                                \
  } while (0)

static napi_value throw_err(napi_env env, const char *msg) {
  napi_throw_error(env, NULL, msg);
  return NULL;
}

static napi_value num(napi_env env, double v) {
  napi_value out;
  napi_create_double(env, v, &out);
  return out;
}

static int args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return -1;
  for (size_t i = argc; i < want; i++) napi_get_undefined(env, &argv[i]);
  return (int)argc;
}

static void *external(napi_env env, napi_value v) {
  void *p = NULL;
  napi_get_value_external(env, v, &p);
  return p;
}

static uint64_t u64(napi_env env, napi_value v) {
  int64_t x = 0;
  napi_get_value_int64(env, v, &x);
  return x < 0 ? 0 : (uint64_t)x;
}

static void table_finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  table_free(env, data);
}

static napi_value create_table(napi_env env, napi_callback_info info) {
  (void)info;
  table_t *t = table_new();
  if (!t) return throw_err(env, "out of memory");
  napi_value out;
  CHECK(napi_create_external(env, t, table_finalize, NULL, &out));
  return out;
}

static napi_value open_window(napi_env env, napi_callback_info info) {
  napi_value a[3];
  args(env, info, 3, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "openWindow: not a table");
  return num(env, window_open(t, u64(env, a[1]), u64(env, a[2])));
}

static napi_value close_window(napi_env env, napi_callback_info info) {
  napi_value a[2];
  args(env, info, 2, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "closeWindow: not a table");
  return num(env, window_close(env, t, u64(env, a[1])));
}

static napi_value publish(napi_env env, napi_callback_info info) {
  napi_value a[4];
  args(env, info, 4, a);
  table_t *t = external(env, a[0]);
  napi_typedarray_type type;
  size_t len;
  void *data;
  if (!t) return throw_err(env, "publish: not a table");
  if (napi_get_typedarray_info(env, a[3], &type, &len, &data, NULL, NULL) != napi_ok || type != napi_uint8_array)
    return throw_err(env, "publish: bytes must be a Uint8Array");
  return num(env, window_publish(env, t, u64(env, a[1]), u64(env, a[2]), data, len, a[3]));
}

static napi_value retire(napi_env env, napi_callback_info info) {
  napi_value a[3];
  args(env, info, 3, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "retire: not a table");
  return num(env, window_retire(env, t, u64(env, a[1]), u64(env, a[2])));
}

static napi_value take_progress(napi_env env, napi_callback_info info) {
  napi_value a[2];
  args(env, info, 2, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "takeProgress: not a table");
  return num(env, (double)window_take_progress(t, u64(env, a[1])));
}

static napi_value take_served(napi_env env, napi_callback_info info) {
  napi_value a[2];
  args(env, info, 2, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "takeServed: not a table");
  return num(env, (double)window_take_served(t, u64(env, a[1])));
}

static napi_value read_window(napi_env env, napi_callback_info info) {
  napi_value a[5];
  args(env, info, 5, a);
  table_t *t = external(env, a[0]);
  napi_typedarray_type type;
  size_t cap;
  void *dst;
  if (!t) return throw_err(env, "readWindow: not a table");
  if (napi_get_typedarray_info(env, a[4], &type, &cap, &dst, NULL, NULL) != napi_ok || type != napi_uint8_array)
    return throw_err(env, "readWindow: target must be a Uint8Array");
  size_t len = u64(env, a[3]);
  if (len > cap) return throw_err(env, "readWindow: target is shorter than length");
  int notify;
  return num(env, (double)window_read(t, u64(env, a[1]), u64(env, a[2]), len, dst, &notify));
}

static napi_value stats(napi_env env, napi_callback_info info) {
  napi_value a[1], out;
  args(env, info, 1, a);
  table_t *t = external(env, a[0]);
  if (!t) return throw_err(env, "stats: not a table");
  CHECK(napi_create_array_with_length(env, 3, &out));
  napi_set_element(env, out, 0, num(env, (double)__atomic_load_n(&t->native_reads, __ATOMIC_RELAXED)));
  napi_set_element(env, out, 1, num(env, (double)__atomic_load_n(&t->native_bytes, __ATOMIC_RELAXED)));
  napi_set_element(env, out, 2, num(env, (double)__atomic_load_n(&t->js_reads, __ATOMIC_RELAXED)));
  return out;
}

napi_value mount_js(napi_env env, napi_callback_info info);
napi_value reply_js(napi_env env, napi_callback_info info);
napi_value unmount_js(napi_env env, napi_callback_info info);
napi_value invalidate_js(napi_env env, napi_callback_info info);

#define EXPORT(name, fn)                                                                                               \
  do {                                                                                                                 \
    napi_value f;                                                                                                      \
    CHECK(napi_create_function(env, name, NAPI_AUTO_LENGTH, fn, NULL, &f));                                            \
    CHECK(napi_set_named_property(env, exports, name, f));                                                             \
  } while (0)

NAPI_MODULE_INIT() {
  EXPORT("createTable", create_table);
  EXPORT("openWindow", open_window);
  EXPORT("closeWindow", close_window);
  EXPORT("publish", publish);
  EXPORT("retire", retire);
  EXPORT("takeProgress", take_progress);
  EXPORT("takeServed", take_served);
  EXPORT("readWindow", read_window);
  EXPORT("stats", stats);
  EXPORT("mount", mount_js);
  EXPORT("reply", reply_js);
  EXPORT("unmount", unmount_js);
  EXPORT("invalidate", invalidate_js);
  return exports;
}
