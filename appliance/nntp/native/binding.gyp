{
  "targets": [
    {
      "target_name": "spool_tcp",
      "sources": ["src/tcp.c"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
