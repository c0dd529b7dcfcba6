/*
 * The FUSE operations. Reads the window holds are answered here, on the FUSE thread; everything else is queued
 * to JS through one threadsafe function, and the FUSE thread sleeps on the request's semaphore until JS calls
 * reply(). No per-thread state: libfuse may start and retire worker threads as it likes.
 */
#include "mount.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static mount_t *current(void) { return fuse_get_context()->private_data; }

req_t *mount_take(mount_t *m, uint64_t id) {
  pthread_mutex_lock(&m->mu);
  req_t **p = &m->pending;
  while (*p && (*p)->id != id) p = &(*p)->next;
  req_t *r = *p;
  if (r) *p = r->next;
  pthread_mutex_unlock(&m->mu);
  return r;
}

/* Queues the request to JS and waits for the answer (a negative errno or a result >= 0). */
static int ask_js(mount_t *m, req_t *r) {
  sem_init(&r->done, 0, 0);
  r->result = -EIO;
  pthread_mutex_lock(&m->mu);
  r->id = ++m->next_id;
  r->next = m->pending;
  m->pending = r;
  pthread_mutex_unlock(&m->mu);
  if (napi_call_threadsafe_function(m->dispatch, r, napi_tsfn_blocking) != napi_ok && mount_take(m, r->id)) {
    sem_destroy(&r->done);
    return -EIO; /* JS is going away */
  }
  while (sem_wait(&r->done) != 0 && errno == EINTR) {
  }
  sem_destroy(&r->done);
  return r->result;
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  /* The kernel offers its largest read-ahead; keep it (asking for more is clamped). max_write stays at libfuse's
   * buffer size (1 MiB), which is what libfuse derives max_pages from: reads of up to 1 MiB per request. */
  conn->max_read = current()->max_read;
  conn->want &= ~FUSE_CAP_SPLICE_READ;
  /* rclone.async_read (default on, as libfuse has it): off, the kernel sends one read of a file at a time. */
  if (current()->sync_read) conn->want &= ~FUSE_CAP_ASYNC_READ;
  /* Readdirplus for every listing, not only the first page (the kernel's auto mode): op_readdir returns the
   * attributes with the names, and `ls -l` or a player's library scan then asks nothing per entry. */
  if (conn->capable & FUSE_CAP_READDIRPLUS) conn->want |= FUSE_CAP_READDIRPLUS;
  conn->want &= ~FUSE_CAP_READDIRPLUS_AUTO;
  cfg->hard_remove = 1; /* unlink of an open file: no .fuse_hidden rename through our rename() */
  cfg->kernel_cache = 0;
  return current();
}

static int op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  (void)fi;
  memset(st, 0, sizeof(*st));
  req_t r = {.op = OP_GETATTR, .path = path, .st = st};
  return ask_js(current(), &r);
}

/* An open directory: its listing, asked of JS once per pass (offset 0) and handed out from there. */
typedef struct {
  char **names;
  unsigned char *dirs;
  struct stat *sts; /* NULL when JS sent no attributes */
  size_t n;
  int loaded;
} dir_t;

static void dir_clear(dir_t *d) {
  for (size_t i = 0; i < d->n; i++) free(d->names[i]);
  free(d->names);
  free(d->dirs);
  free(d->sts);
  memset(d, 0, sizeof(*d));
}

static int op_opendir(const char *path, struct fuse_file_info *fi) {
  (void)path;
  dir_t *d = calloc(1, sizeof(dir_t));
  if (!d) return -ENOMEM;
  fi->fh = (uint64_t)(uintptr_t)d;
  return 0;
}

static int op_releasedir(const char *path, struct fuse_file_info *fi) {
  (void)path;
  dir_t *d = (dir_t *)(uintptr_t)fi->fh;
  if (d) dir_clear(d);
  free(d);
  return 0;
}

/* Names with their attributes. Entries carry offsets (entry i is i + 3, after "." and ".."), which is what makes
 * libfuse pass each one's stat to the kernel in a readdirplus (with offset 0 it keeps only the names). The kernel
 * then asks no getattr per entry: `ls -l` of a 10,000-entry folder is one call to JS, not 10,001. The listing is
 * asked of JS at offset 0 and kept with the open directory for the kernel's later pages. */
static int op_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t off, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags) {
  dir_t *d = (dir_t *)(uintptr_t)fi->fh;
  if (!d) return -EIO;
  if (off == 0 || !d->loaded) {
    dir_clear(d);
    req_t r = {.op = OP_READDIR, .path = path};
    int res = ask_js(current(), &r);
    d->names = r.names, d->dirs = r.dirs, d->sts = r.sts, d->n = r.n_names;
    if (res != 0) {
      dir_clear(d);
      return res;
    }
    d->loaded = 1;
  }
  int plus = (flags & FUSE_READDIR_PLUS) && d->sts;
  if (off < 1 && fill(buf, ".", NULL, 1, 0)) return 0;
  if (off < 2 && fill(buf, "..", NULL, 2, 0)) return 0;
  for (size_t i = off > 2 ? (size_t)off - 2 : 0; i < d->n; i++) {
    struct stat st = {.st_mode = d->dirs[i] ? S_IFDIR : S_IFREG};
    if (fill(buf, d->names[i], plus ? &d->sts[i] : &st, (off_t)i + 3, plus ? FUSE_FILL_DIR_PLUS : 0)) break;
  }
  return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi) {
  req_t r = {.op = OP_OPEN, .path = path, .flags = fi->flags, .pid = (int)fuse_get_context()->pid};
  int res = ask_js(current(), &r);
  if (res == 0) fi->fh = r.out_fh;
  /* -o direct_io (the default, see mountOptions): reads skip the page cache and reach us at the reader's size, up
   * to max_read. Without it the page cache, kernel read-ahead and shared mmap work. */
  fi->direct_io = current()->direct_io;
  return res;
}

static int op_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi) {
  mount_t *m = current();
  int notify = 0;
  int64_t n = window_read(m->table, fi->fh, (uint64_t)off, size, buf, &notify);
  if (n >= 0) {
    /* Coalesced: at most one progress call per window is queued until JS takes it. */
    if (notify) napi_call_threadsafe_function(m->progress, (void *)(uintptr_t)fi->fh, napi_tsfn_nonblocking);
    return (int)n;
  }
  __atomic_add_fetch(&m->table->js_reads, 1, __ATOMIC_RELAXED);
  req_t r = {.op = OP_READ, .path = path, .fh = fi->fh, .off = (uint64_t)off, .size = size, .buf = buf};
  return ask_js(m, &r);
}

static int op_release(const char *path, struct fuse_file_info *fi) {
  req_t r = {.op = OP_RELEASE, .path = path, .fh = fi->fh};
  return ask_js(current(), &r);
}

static int op_unlink(const char *path) {
  req_t r = {.op = OP_UNLINK, .path = path};
  return ask_js(current(), &r);
}

static int op_rename(const char *from, const char *to, unsigned int flags) {
  if (flags) return -EINVAL; /* RENAME_EXCHANGE / RENAME_NOREPLACE: not offered by the virtual tree */
  req_t r = {.op = OP_RENAME, .path = from, .path2 = to};
  return ask_js(current(), &r);
}

static int op_statfs(const char *path, struct statvfs *sv) {
  (void)path;
  memset(sv, 0, sizeof(*sv));
  sv->f_bsize = sv->f_frsize = 4096;
  sv->f_namemax = 255;
  return 0;
}

const struct fuse_operations spool_ops = {
    .init = op_init,
    .getattr = op_getattr,
    .opendir = op_opendir,
    .readdir = op_readdir,
    .releasedir = op_releasedir,
    .open = op_open,
    .read = op_read,
    .release = op_release,
    .unlink = op_unlink,
    .rename = op_rename,
    .statfs = op_statfs,
};

void *mount_loop_main(void *arg) {
  mount_t *m = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are Node's business; workers inherit this mask */
  fuse_loop_mt(m->fuse, 0);
  return NULL;
}

/*
 * Off the JS thread, because JS must keep answering the requests in flight while the loop winds down:
 * fuse_exit stops the workers after their current request, fuse_unmount detaches the mount (lazily), which ends
 * the connection and wakes workers blocked reading /dev/fuse; then the loop thread is joined.
 */
void *mount_unmount_main(void *arg) {
  mount_t *m = arg;
  pthread_rwlock_wrlock(&m->notify_lock); /* waits for an invalidation in progress; none starts after this */
  m->notify_closed = 1;
  pthread_rwlock_unlock(&m->notify_lock);
  fuse_exit(m->fuse);
  fuse_unmount(m->fuse);
  pthread_join(m->loop, NULL);
  fuse_destroy(m->fuse);
  m->fuse = NULL;
  napi_call_threadsafe_function(m->finished, m, napi_tsfn_blocking);
  napi_release_threadsafe_function(m->finished, napi_tsfn_release);
  return NULL;
}
