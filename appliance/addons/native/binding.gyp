{
  "targets": [
    {
      "target_name": "spool_memory",
      "sources": ["src/memory.cc", "src/listen-socket.cc"],
      "defines": ["NAPI_VERSION=8"],
      "cflags_cc": ["-std=gnu++20", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"]
    }
  ]
}
