/* mount / reply / unmount: the JS side of the request queue in mount.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mount.h"

static napi_value num(napi_env env, double v) {
  napi_value out;
  napi_create_double(env, v, &out);
  return out;
}

static char *string_of(napi_env env, napi_value v) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &len) != napi_ok) return NULL;
  char *s = malloc(len + 1);
  if (s) napi_get_value_string_utf8(env, v, s, len + 1, &len);
  return s;
}

static napi_value fail(napi_env env, const char *fmt, const char *a, const char *b) {
  char msg[512];
  snprintf(msg, sizeof msg, fmt, a, b);
  napi_throw_error(env, NULL, msg);
  return NULL;
}

/* JS thread: hands one request to dispatch(op, id, path, a, b, c). */
static void call_dispatch(napi_env env, napi_value cb, void *ctx, void *data) {
  mount_t *m = ctx;
  req_t *r = data;
  uint64_t id = r->id; /* r may be gone as soon as JS replies, even inside the call below */
  if (!env) {
    if (mount_take(m, id)) sem_post(&r->done); /* result stays -EIO */
    return;
  }
  napi_value argv[6], undef;
  napi_get_undefined(env, &undef);
  for (int i = 0; i < 6; i++) argv[i] = undef;
  argv[0] = num(env, r->op);
  argv[1] = num(env, (double)id);
  napi_create_string_utf8(env, r->path, NAPI_AUTO_LENGTH, &argv[2]);
  if (r->op == OP_OPEN) argv[3] = num(env, r->flags), argv[4] = num(env, r->pid);
  if (r->op == OP_READ || r->op == OP_RELEASE) argv[3] = num(env, (double)r->fh);
  if (r->op == OP_READ) argv[4] = num(env, (double)r->off), argv[5] = num(env, (double)r->size);
  if (r->op == OP_RENAME) napi_create_string_utf8(env, r->path2, NAPI_AUTO_LENGTH, &argv[3]);
  if (napi_call_function(env, undef, cb, 6, argv, NULL) != napi_ok) {
    napi_value e;
    napi_get_and_clear_last_exception(env, &e);
    req_t *still = mount_take(m, id);
    if (still) sem_post(&still->done);
  }
}

static void call_progress(napi_env env, napi_value cb, void *ctx, void *data) {
  (void)ctx;
  if (!env) return;
  napi_value undef, fh = num(env, (double)(uintptr_t)data);
  napi_get_undefined(env, &undef);
  if (napi_call_function(env, undef, cb, 1, &fh, NULL) != napi_ok) {
    napi_value e;
    napi_get_and_clear_last_exception(env, &e);
  }
}

static void cleanup(void *arg) {
  mount_t *m = arg;
  if (m->state != MOUNTED) return;
  /* The process is ending without unmount(): detach, so no dead mount is left behind. No join: workers may
   * be waiting for a JS that no longer runs. */
  m->state = UNMOUNTING;
  __atomic_store_n(&m->notify_closed, 1, __ATOMIC_RELEASE); /* no lock: an invalidation may be waiting on JS */
  fuse_exit(m->fuse);
  fuse_unmount(m->fuse);
}

static void call_finished(napi_env env, napi_value cb, void *ctx, void *data) {
  (void)data;
  mount_t *m = ctx;
  m->state = CLOSED;
  if (!env) return;
  napi_remove_env_cleanup_hook(env, cleanup, m);
  napi_release_threadsafe_function(m->dispatch, napi_tsfn_release);
  napi_release_threadsafe_function(m->progress, napi_tsfn_release);
  napi_delete_reference(env, m->table_ref);
  napi_value undef;
  napi_get_undefined(env, &undef);
  napi_call_function(env, undef, cb, 0, NULL, NULL);
}

static napi_value make_tsfn(napi_env env, napi_value fn, const char *name, mount_t *m, napi_threadsafe_function_call_js call,
                            napi_threadsafe_function *out) {
  napi_value res;
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &res);
  if (napi_create_threadsafe_function(env, fn, NULL, res, 0, 1, NULL, NULL, m, call, out) != napi_ok) return NULL;
  return res;
}

/* Removes the option `name` from a comma-separated list in place; 1 if it was there. */
static int take_flag(char *opts, const char *name) {
  size_t n = strlen(name);
  for (char *p = opts; *p;) {
    char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) {
      if (end) memmove(p, end + 1, strlen(end + 1) + 1);
      else if (p > opts) p[-1] = '\0';
      else *p = '\0';
      return 1;
    }
    p = end ? end + 1 : p + len;
  }
  return 0;
}

/* mount(table, mountpoint, options, dispatch, progress). The mount_t is never freed: late threadsafe calls may
 * still name it, and a process mounts a handful of times at most. */
napi_value mount_js(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value a[5];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  if (argc < 5) return fail(env, "mount: expected 5 arguments%s%s", "", "");
  table_t *t = NULL;
  napi_get_value_external(env, a[0], (void **)&t);
  char *point = string_of(env, a[1]), *opts = string_of(env, a[2]);
  if (!t || !point || !opts) {
    free(point), free(opts);
    return fail(env, "mount: bad arguments (table, mountpoint, options)%s%s", "", "");
  }
  mount_t *m = calloc(1, sizeof(mount_t));
  m->table = t;
  pthread_mutex_init(&m->mu, NULL);
  pthread_rwlock_init(&m->notify_lock, NULL);
  const char *mr = strstr(opts, "max_read=");
  m->max_read = mr ? (unsigned)strtoul(mr + 9, NULL, 10) : 0;
  m->direct_io = take_flag(opts, "direct_io"); /* ours, not libfuse 3's: set per open in op_open */
  m->sync_read = take_flag(opts, "sync_read"); /* rclone.async_read off: applied in op_init */
  char *argv[] = {"spool", "-o", opts, NULL};
  struct fuse_args fa = FUSE_ARGS_INIT(opts[0] ? 3 : 1, argv);
  m->fuse = fuse_new(&fa, &spool_ops, sizeof(spool_ops), m);
  fuse_opt_free_args(&fa);
  if (!m->fuse) {
    napi_value err = fail(env, "libfuse refused the mount options '%s'%s", opts, "");
    free(point), free(opts), free(m);
    return err;
  }
  if (fuse_mount(m->fuse, point) != 0) {
    int e = errno;
    fuse_destroy(m->fuse);
    napi_value err = fail(env, "cannot mount at %s: %s", point, e ? strerror(e) : "see the log");
    free(point), free(opts), free(m);
    return err;
  }
  free(point), free(opts);
  napi_create_reference(env, a[0], 1, &m->table_ref);
  make_tsfn(env, a[3], "spool-fuse-dispatch", m, call_dispatch, &m->dispatch);
  make_tsfn(env, a[4], "spool-fuse-progress", m, call_progress, &m->progress);
  /* A mount alone does not keep the process alive (the HTTP server does); unmount's own call does. */
  napi_unref_threadsafe_function(env, m->dispatch);
  napi_unref_threadsafe_function(env, m->progress);
  napi_add_env_cleanup_hook(env, cleanup, m);
  pthread_create(&m->loop, NULL, mount_loop_main, m);
  napi_value out;
  napi_create_external(env, m, NULL, NULL, &out);
  return out;
}

/* The 8 fields JS answers for a path: mode, uid, gid, size, nlink, atime, mtime, ctime (ms). */
static void stat_of(const double *f, struct stat *st) {
  st->st_mode = (mode_t)f[0];
  st->st_uid = (uid_t)f[1];
  st->st_gid = (gid_t)f[2];
  st->st_size = (off_t)f[3];
  st->st_nlink = (nlink_t)f[4];
  st->st_atim = (struct timespec){(time_t)(f[5] / 1000), (long)((uint64_t)f[5] % 1000) * 1000000};
  st->st_mtim = (struct timespec){(time_t)(f[6] / 1000), (long)((uint64_t)f[6] % 1000) * 1000000};
  st->st_ctim = (struct timespec){(time_t)(f[7] / 1000), (long)((uint64_t)f[7] % 1000) * 1000000};
  st->st_blksize = 4096;
  st->st_blocks = (st->st_size + 511) / 512;
}

static int fill_stat(napi_env env, napi_value v, struct stat *st) {
  napi_typedarray_type type;
  size_t n;
  void *data;
  if (napi_get_typedarray_info(env, v, &type, &n, &data, NULL, NULL) != napi_ok || type != napi_float64_array || n < 8)
    return -EIO;
  stat_of(data, st);
  return 0;
}

/* readdir's attributes: a Float64Array of 8 fields (fill_stat's) per name; anything else leaves r->sts NULL. */
static int fill_stats(napi_env env, napi_value v, req_t *r) {
  napi_typedarray_type type;
  size_t n;
  void *data;
  if (napi_get_typedarray_info(env, v, &type, &n, &data, NULL, NULL) != napi_ok || type != napi_float64_array ||
      n < r->n_names * 8)
    return 0;
  r->sts = calloc(r->n_names ? r->n_names : 1, sizeof(struct stat));
  if (!r->sts) return -ENOMEM;
  const double *f = data;
  for (size_t i = 0; i < r->n_names; i++, f += 8) stat_of(f, &r->sts[i]);
  return 0;
}

static int fill_names(napi_env env, napi_value names, napi_value dirs, req_t *r) {
  uint32_t n = 0;
  napi_typedarray_type type;
  size_t nd;
  void *flags;
  if (napi_get_array_length(env, names, &n) != napi_ok) return -EIO;
  if (napi_get_typedarray_info(env, dirs, &type, &nd, &flags, NULL, NULL) != napi_ok || type != napi_uint8_array ||
      nd < n)
    return -EIO;
  r->names = calloc(n ? n : 1, sizeof(char *));
  r->dirs = malloc(n ? n : 1);
  if (!r->names || !r->dirs) return -ENOMEM;
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, names, i, &v);
    r->names[i] = string_of(env, v);
    r->dirs[i] = ((unsigned char *)flags)[i];
    r->n_names = i + 1;
    if (!r->names[i]) return -EIO;
  }
  return 0;
}

static int fill_read(napi_env env, napi_value v, req_t *r, int result) {
  napi_typedarray_type type;
  size_t n;
  void *data;
  if (napi_get_typedarray_info(env, v, &type, &n, &data, NULL, NULL) != napi_ok || type != napi_uint8_array)
    return -EIO;
  size_t count = (size_t)result < n ? (size_t)result : n;
  if (count > r->size) count = r->size;
  memcpy(r->buf, data, count);
  return (int)count;
}

/* reply(mount, id, result, a?, b?, c?): getattr a=Float64Array[8]; readdir a=names, b=Uint8Array isDir,
 * c=Float64Array[8 per name] (optional: attributes for readdirplus); open a=fh; read a=bytes (result = how many).
 * False when the request was already answered. */
napi_value reply_js(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value a[6], out;
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  mount_t *m = NULL;
  int64_t id = 0;
  int32_t result = -EIO;
  if (argc < 3 || napi_get_value_external(env, a[0], (void **)&m) != napi_ok || !m)
    return fail(env, "reply: expected (mount, id, result, ...)%s%s", "", "");
  napi_get_value_int64(env, a[1], &id);
  napi_get_value_int32(env, a[2], &result);
  req_t *r = mount_take(m, (uint64_t)id);
  if (r && result >= 0) {
    if (r->op == OP_GETATTR) result = argc > 3 ? fill_stat(env, a[3], r->st) : -EIO;
    else if (r->op == OP_READDIR) {
      result = argc > 4 ? fill_names(env, a[3], a[4], r) : -EIO;
      if (result == 0 && argc > 5) result = fill_stats(env, a[5], r);
    }
    else if (r->op == OP_OPEN) {
      int64_t fh = 0;
      if (argc < 4 || napi_get_value_int64(env, a[3], &fh) != napi_ok) result = -EIO;
      r->out_fh = (uint64_t)fh;
    } else if (r->op == OP_READ) result = argc > 3 ? fill_read(env, a[3], r, result) : -EIO;
  }
  if (r) {
    r->result = result;
    sem_post(&r->done);
  }
  napi_get_boolean(env, r != NULL, &out);
  return out;
}

napi_value unmount_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value a[2];
  napi_get_cb_info(env, info, &argc, a, NULL, NULL);
  mount_t *m = NULL;
  if (argc < 2 || napi_get_value_external(env, a[0], (void **)&m) != napi_ok || !m)
    return fail(env, "unmount: expected (mount, done)%s%s", "", "");
  if (m->state != MOUNTED) return fail(env, "unmount: not mounted%s%s", "", "");
  if (!make_tsfn(env, a[1], "spool-fuse-unmounted", m, call_finished, &m->finished))
    return fail(env, "unmount: cannot create the completion call%s%s", "", "");
  m->state = UNMOUNTING;
  pthread_t t;
  pthread_create(&t, NULL, mount_unmount_main, m);
  pthread_detach(t);
  return NULL;
}
