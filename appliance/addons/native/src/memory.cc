/*
 * Giving memory back to the system after a large job (see appliance/addons/release-memory.ts for why and when):
 *   collect() -> undefined: a full, compacting V8 collection (Isolate::LowMemoryNotification), so the buffers a
 *                job dropped are freed now, not at a collection an idle process never starts
 *   trim() -> 1 when glibc returned memory to the system, else 0 (malloc_trim(0): the freed pages of every arena)
 */
#include <malloc.h>
#include <node_api.h>
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

static napi_value init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"collect", nullptr, collect, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"trim", nullptr, trim, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
