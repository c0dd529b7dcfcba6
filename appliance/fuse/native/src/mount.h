/* A FUSE 3 mount served by libfuse's multi-threaded loop on native threads; JS answers what the window cannot. */
#ifndef SPOOL_MOUNT_H
#define SPOOL_MOUNT_H

#define FUSE_USE_VERSION 31
#include <fuse.h>
#include <node_api.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <sys/stat.h>

#include "window.h"

enum { OP_GETATTR = 1, OP_READDIR, OP_OPEN, OP_READ, OP_RELEASE, OP_UNLINK, OP_RENAME };

/* One operation waiting for JS. Lives on the FUSE thread's stack until JS replies (or the mount goes away). */
typedef struct req {
  int op;
  uint64_t id;
  const char *path, *path2;
  uint64_t fh, off;
  int flags;
  int pid; /* open: the process that opened the file (fuse_get_context), 0 when the kernel did not say */
  size_t size;
  char *buf;       /* read: where the bytes go */
  struct stat *st; /* getattr */
  char **names;    /* readdir: filled by reply, freed by the FUSE thread */
  unsigned char *dirs;
  struct stat *sts; /* readdir: each name's attributes (readdirplus), or NULL; freed by the FUSE thread */
  size_t n_names;
  uint64_t out_fh; /* open */
  int result;
  sem_t done;
  struct req *next;
} req_t;

typedef struct mount {
  struct fuse *fuse;
  table_t *table;
  napi_ref table_ref;
  napi_threadsafe_function dispatch, progress, finished;
  pthread_t loop;
  pthread_mutex_t mu; /* guards pending and next_id */
  req_t *pending;
  uint64_t next_id;
  int state;         /* MOUNTED, UNMOUNTING, CLOSED */
  unsigned max_read; /* the -o max_read value: libfuse wants init() to say the same */
  int direct_io;     /* -o direct_io (taken out before libfuse sees it): every open skips the page cache */
  int sync_read;     /* -o sync_read (ours, taken out too): init() turns FUSE_CAP_ASYNC_READ off */
  /* Kernel cache invalidations (addon_notify.c) hold it for reading; unmount sets notify_closed under it for
   * writing, so none runs once the loop starts winding down or after fuse_destroy. */
  pthread_rwlock_t notify_lock;
  int notify_closed;
} mount_t;

enum { MOUNTED = 0, UNMOUNTING, CLOSED };

extern const struct fuse_operations spool_ops;

/* Removes a pending request by id (NULL when already answered). Any thread. */
req_t *mount_take(mount_t *m, uint64_t id);
void *mount_loop_main(void *arg);
void *mount_unmount_main(void *arg);

#endif
