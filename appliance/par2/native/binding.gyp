{
  "targets": [
    {
      "target_name": "spool_gf16",
      "sources": ["src/gf16.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=gnu11", "-O3", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
