/*
 * Giving memory back to the system after a large job (see appliance/addons/release-memory.ts for why and when):
 *   collect() -> undefined: a full, compacting V8 collection (Isolate::LowMemoryNotification), so the buffers a
 *                job dropped are freed now, not at a collection an idle process never starts
 *   trim() -> 1 when glibc returned memory to the system, else 0 (malloc_trim(0): the freed pages of every arena)
 *   dropFileMappings(path) -> bytes: madvise(MADV_DONTNEED) on every shared mapping of `path` (LMDB's read map of
 *                its data file). The pages stay in the kernel's page cache; the process only stops mapping them
 *                (they are mapped again, from the cache or the file, on the next read). Private mappings are never
 *                touched (that would throw away their copied-on-write pages). -errno when /proc/self/maps fails.
 * The same addon sets the send buffer of Spool's listening socket (listen-socket.cc).
 */
#include <errno.h>
#include <malloc.h>
#include <node_api.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <v8.h>

static napi_value collect(napi_env env, napi_callback_info info) {
  v8::Isolate *isolate = v8::Isolate::GetCurrent();
  if (isolate != nullptr) isolate->LowMemoryNotification();
  return nullptr;
}

static napi_value trim(napi_env env, napi_callback_info info) {
  napi_value out;
  napi_create_int32(env, malloc_trim(0), &out);
  return out;
}

static double drop_mappings_of(const char *path) {
  FILE *maps = fopen("/proc/self/maps", "r");
  if (maps == nullptr) return -errno;
  char line[4096];
  double dropped = 0;
  while (fgets(line, sizeof line, maps) != nullptr) {
    unsigned long start, end;
    char perms[8];
    int name_at = 0;
    if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms, &name_at) < 3 || name_at == 0) continue;
    char *name = line + name_at;
    name[strcspn(name, "\n")] = '\0';
    if (perms[3] != 's' || strcmp(name, path) != 0) continue;
    if (madvise(reinterpret_cast<void *>(start), end - start, MADV_DONTNEED) == 0) dropped += end - start;
  }
  fclose(maps);
  return dropped;
}

static napi_value drop_file_mappings(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char path[4096];
  size_t len = 0;
  if (napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr) != napi_ok || argc < 1 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || len == 0) {
    napi_throw_type_error(env, nullptr, "dropFileMappings(path): path must be a non-empty string");
    return nullptr;
  }
  napi_value out;
  napi_create_double(env, drop_mappings_of(path), &out);
  return out;
}

napi_value listen_socket_exports(napi_env env, napi_value exports); // listen-socket.cc

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"collect", nullptr, collect, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"trim", nullptr, trim, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"dropFileMappings", nullptr, drop_file_mappings, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return listen_socket_exports(env, exports);
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
