/*
 * The send buffer of a listening TCP socket (see appliance/http/socket-hold.ts and docs/streaming.md "What an unproven GET may fetch" for why):
 *   setListenSendBuffer(port, bytes) -> the send buffer the kernel reports back (getsockopt SO_SNDBUF, already
 *       doubled by Linux), or a string saying why it could not. Finds the process's own listening TCP socket on
 *       `port` by scanning /proc/self/fd: a socket whose SO_ACCEPTCONN is 1, whose family is IPv4 or IPv6 and whose
 *       getsockname port is `port`; sets SO_SNDBUF on every such socket (a dual-stack host may hold two). Linux
 *       copies the listener's buffer, and the lock that turns send-buffer autotuning off, into every socket it
 *       accepts. Never throws for a socket problem; throws a TypeError for arguments that are not numbers.
 *   sendBufferOf(fd) -> getsockopt(fd, SO_SNDBUF), or -errno (tests: what an accepted socket inherited).
 */
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <node_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

static int listening_port_of(int fd) {
  int accepting = 0;
  socklen_t len = sizeof accepting;
  if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &len) != 0 || accepting != 1) return -1;
  int type = 0;
  len = sizeof type;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM) return -1;
  sockaddr_storage addr;
  len = sizeof addr;
  if (getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) return -1;
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in *>(&addr)->sin_port);
  if (addr.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6 *>(&addr)->sin6_port);
  return -1;
}

/* The descriptor number of /proc/self/fd/<name> when it is a socket, else -1. */
static int socket_fd(DIR *dir, const char *name) {
  char *end = nullptr;
  long fd = strtol(name, &end, 10);
  if (end == name || *end != '\0' || fd == dirfd(dir)) return -1;
  struct stat st;
  if (fstat(static_cast<int>(fd), &st) != 0 || !S_ISSOCK(st.st_mode)) return -1;
  return static_cast<int>(fd);
}

/* The send buffer read back (> 0), or -errno, or 0 when no listening socket has that port. */
static long set_listen_send_buffer(int port, int bytes, int *found) {
  DIR *dir = opendir("/proc/self/fd");
  if (dir == nullptr) return -errno;
  long reported = 0;
  *found = 0;
  while (dirent *entry = readdir(dir)) {
    int fd = socket_fd(dir, entry->d_name);
    if (fd < 0 || listening_port_of(fd) != port) continue;
    ++*found;
    if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) != 0) {
      reported = -errno;
      break;
    }
    int now = 0;
    socklen_t len = sizeof now;
    if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &now, &len) != 0) {
      reported = -errno;
      break;
    }
    if (reported == 0 || now > reported) reported = now;
  }
  closedir(dir);
  return reported;
}

static napi_value set_listen_send_buffer_js(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  int32_t port = 0, bytes = 0;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 2 ||
      napi_get_value_int32(env, argv[0], &port) != napi_ok || napi_get_value_int32(env, argv[1], &bytes) != napi_ok ||
      port <= 0 || port > 65535 || bytes <= 0) {
    napi_throw_type_error(env, nullptr, "setListenSendBuffer(port, bytes): a port 1-65535 and a positive size");
    return nullptr;
  }
  int found = 0;
  long reported = set_listen_send_buffer(port, bytes, &found);
  napi_value out;
  if (reported > 0) {
    napi_create_int64(env, reported, &out);
    return out;
  }
  char why[160];
  if (found == 0 && reported == 0)
    snprintf(why, sizeof why, "no listening TCP socket of this process has port %d", port);
  else
    snprintf(why, sizeof why, "SO_SNDBUF on the listening socket of port %d failed: %s", port, strerror(-reported));
  napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &out);
  return out;
}

static napi_value send_buffer_of(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok) {
    napi_throw_type_error(env, nullptr, "sendBufferOf(fd): fd must be a number");
    return nullptr;
  }
  int now = 0;
  socklen_t len = sizeof now;
  napi_value out;
  napi_create_int32(env, getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &now, &len) == 0 ? now : -errno, &out);
  return out;
}

napi_value listen_socket_exports(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"setListenSendBuffer", nullptr, set_listen_send_buffer_js, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"sendBufferOf", nullptr, send_buffer_of, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}
