{
  "targets": [
    {
      "target_name": "spool_fuse",
      "sources": ["src/addon.c", "src/addon_mount.c", "src/addon_notify.c", "src/mount.c", "src/window.c"],
      "defines": ["NAPI_VERSION=8", "_FILE_OFFSET_BITS=64"],
      "cflags": ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Wno-unused-parameter", "<!@(pkg-config --cflags fuse3)"],
      "libraries": ["<!@(pkg-config --libs fuse3)"]
    }
  ]
}
