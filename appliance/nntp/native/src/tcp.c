/*
 * TCP socket options Node does not expose (see appliance/nntp/tcp-quickack.ts for why and when they are used):
 *   quickAck(fd) -> 0 on success, else the errno (EBADF, ENOTSOCK, EOPNOTSUPP for a non-TCP socket...)
 *   quickAckState(fd) -> 1 or 0 as the kernel reports TCP_QUICKACK now, or -errno (for tests)
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <node_api.h>
#include <stdio.h>
#include <sys/socket.h>

/* The fd argument of `name`; throws a TypeError (and returns -1) when it is missing or not a number. */
static int fd_arg(napi_env env, napi_callback_info info, const char *name, int32_t *fd) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 &&
      napi_get_value_int32(env, argv[0], fd) == napi_ok)
    return 0;
  char msg[64];
  snprintf(msg, sizeof msg, "%s(fd): fd must be a number", name);
  napi_throw_type_error(env, NULL, msg);
  return -1;
}

static napi_value int_value(napi_env env, int32_t v) {
  napi_value out;
  napi_create_int32(env, v, &out);
  return out;
}

static napi_value quick_ack(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (fd_arg(env, info, "quickAck", &fd) != 0) return NULL;
  int one = 1;
  return int_value(env, setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one) == 0 ? 0 : errno);
}

static napi_value quick_ack_state(napi_env env, napi_callback_info info) {
  int32_t fd;
  if (fd_arg(env, info, "quickAckState", &fd) != 0) return NULL;
  int v = 0;
  socklen_t len = sizeof v;
  return int_value(env, getsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &v, &len) == 0 ? v : -errno);
}

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"quickAck", NULL, quick_ack, NULL, NULL, NULL, napi_default, NULL},
      {"quickAckState", NULL, quick_ack_state, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
