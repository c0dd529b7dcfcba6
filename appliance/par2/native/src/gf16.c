/*
 * GF(2^16) multiply-add over regions for the PAR 2.0 solve (appliance/par2/gf16-native.ts, docs/par2.md "Speed"):
 * dst ^= factor * src, words little-endian, modulo the generator polynomial 0x1100B.
 *
 *   mulAdd(dst, src, factor[, kernel]) -> undefined
 *       dst, src: Uint8Array of the same even length; factor: 0..65535; kernel as for kernels() (tests), 0 = best.
 *   mulAddMany(dsts, srcs, factors[, kernel]) -> undefined
 *       dsts[j] ^= sum over b of factors[j * srcs.length + b] * srcs[b]; all arrays of one even length. Works in
 *       column blocks so each block of the sources stays in cache while every destination takes it.
 *   kernels() -> array of the kernel names this CPU runs, best first: "avx2", "ssse3", "scalar" (index + 1 is the
 *       kernel number).
 *
 * The SIMD kernels use the split-table nibble method: a 16-bit word is four nibbles, so factor * word is the XOR of
 * four products factor * (nibble << 4k); each takes two 16-entry byte tables (low and high byte of the product),
 * looked up 16 (SSSE3) or 32 (AVX2) at a time with pshufb. The scalar kernel uses two 256-entry tables of 16-bit
 * products (low byte and high byte of the word), as appliance/par2/gf16.ts does.
 */
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPOOL_X86 1
#endif

#define POLY 0x1100B
#define ORDER 65535
#define BLOCK 4096 /* bytes of a column block in mulAddMany: a destination block and a batch of source blocks stay in L1/L2 */

static uint16_t gf_log[65536];
static uint16_t gf_exp[2 * ORDER + 1];

static void gf_init(void) {
  uint32_t x = 1;
  for (int i = 0; i < ORDER; i++) {
    gf_exp[i] = (uint16_t)x;
    gf_log[x] = (uint16_t)i;
    x <<= 1;
    if (x & 0x10000) x ^= POLY;
  }
  for (int i = ORDER; i <= 2 * ORDER; i++) gf_exp[i] = gf_exp[i - ORDER];
}

static inline uint16_t gf_mul(uint16_t a, uint16_t b) {
  if (a == 0 || b == 0) return 0;
  return gf_exp[gf_log[a] + gf_log[b]];
}

/* Tables for one factor, built once per call and shared by the kernels. */
typedef struct {
  uint16_t lo[256], hi[256];         /* scalar: factor * b and factor * (b << 8) */
  uint8_t nib[8][16] __attribute__((aligned(32))); /* SIMD: [2k] low bytes, [2k+1] high bytes of factor * (v << 4k) */
} tables_t;

static void make_tables(uint16_t factor, tables_t *t, int scalar) {
  if (scalar) {
    for (int b = 0; b < 256; b++) {
      t->lo[b] = gf_mul(factor, (uint16_t)b);
      t->hi[b] = gf_mul(factor, (uint16_t)(b << 8));
    }
    return;
  }
  for (int k = 0; k < 4; k++)
    for (int v = 0; v < 16; v++) {
      uint16_t p = gf_mul(factor, (uint16_t)(v << (4 * k)));
      t->nib[2 * k][v] = (uint8_t)p;
      t->nib[2 * k + 1][v] = (uint8_t)(p >> 8);
    }
}

static void madd_scalar(uint8_t *dst, const uint8_t *src, size_t len, const tables_t *t) {
  for (size_t i = 0; i + 1 < len; i += 2) {
    uint16_t p = t->lo[src[i]] ^ t->hi[src[i + 1]];
    dst[i] ^= (uint8_t)p;
    dst[i + 1] ^= (uint8_t)(p >> 8);
  }
}

/* The scalar tail of a SIMD kernel: the nibble tables give the same products. */
static void madd_nibble_tail(uint8_t *dst, const uint8_t *src, size_t len, const tables_t *t) {
  for (size_t i = 0; i + 1 < len; i += 2) {
    uint8_t l = src[i], h = src[i + 1];
    uint8_t a = t->nib[0][l & 15] ^ t->nib[2][l >> 4] ^ t->nib[4][h & 15] ^ t->nib[6][h >> 4];
    uint8_t b = t->nib[1][l & 15] ^ t->nib[3][l >> 4] ^ t->nib[5][h & 15] ^ t->nib[7][h >> 4];
    dst[i] ^= a;
    dst[i + 1] ^= b;
  }
}

#ifdef SPOOL_X86
__attribute__((target("ssse3"))) static void madd_ssse3(uint8_t *dst, const uint8_t *src, size_t len,
                                                       const tables_t *t) {
  const __m128i split = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  const __m128i mask = _mm_set1_epi8(0x0f);
  __m128i tb[8];
  for (int k = 0; k < 8; k++) tb[k] = _mm_load_si128((const __m128i *)t->nib[k]);
  size_t i = 0;
  for (; i + 32 <= len; i += 32) {
    __m128i a = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + i)), split);
    __m128i b = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(src + i + 16)), split);
    __m128i lo = _mm_unpacklo_epi64(a, b), hi = _mm_unpackhi_epi64(a, b);
    __m128i n0 = _mm_and_si128(lo, mask), n1 = _mm_and_si128(_mm_srli_epi16(lo, 4), mask);
    __m128i n2 = _mm_and_si128(hi, mask), n3 = _mm_and_si128(_mm_srli_epi16(hi, 4), mask);
    __m128i rl = _mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi8(tb[0], n0), _mm_shuffle_epi8(tb[2], n1)),
                               _mm_xor_si128(_mm_shuffle_epi8(tb[4], n2), _mm_shuffle_epi8(tb[6], n3)));
    __m128i rh = _mm_xor_si128(_mm_xor_si128(_mm_shuffle_epi8(tb[1], n0), _mm_shuffle_epi8(tb[3], n1)),
                               _mm_xor_si128(_mm_shuffle_epi8(tb[5], n2), _mm_shuffle_epi8(tb[7], n3)));
    __m128i *d = (__m128i *)(dst + i);
    _mm_storeu_si128(d, _mm_xor_si128(_mm_loadu_si128(d), _mm_unpacklo_epi8(rl, rh)));
    _mm_storeu_si128(d + 1, _mm_xor_si128(_mm_loadu_si128(d + 1), _mm_unpackhi_epi8(rl, rh)));
  }
  madd_nibble_tail(dst + i, src + i, len - i, t);
}

__attribute__((target("avx2"))) static void madd_avx2(uint8_t *dst, const uint8_t *src, size_t len,
                                                     const tables_t *t) {
  /* pshufb and the unpacks work within each 128-bit lane; splitting, looking up and re-interleaving lane by lane
     puts every word back where it came from (lane 0 of the low result holds words 0-7, lane 1 words 8-15). */
  const __m256i split = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12,
                                         14, 1, 3, 5, 7, 9, 11, 13, 15);
  const __m256i mask = _mm256_set1_epi8(0x0f);
  __m256i tb[8];
  for (int k = 0; k < 8; k++) tb[k] = _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)t->nib[k]));
  size_t i = 0;
  for (; i + 64 <= len; i += 64) {
    __m256i a = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(src + i)), split);
    __m256i b = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(src + i + 32)), split);
    __m256i lo = _mm256_unpacklo_epi64(a, b), hi = _mm256_unpackhi_epi64(a, b);
    __m256i n0 = _mm256_and_si256(lo, mask), n1 = _mm256_and_si256(_mm256_srli_epi16(lo, 4), mask);
    __m256i n2 = _mm256_and_si256(hi, mask), n3 = _mm256_and_si256(_mm256_srli_epi16(hi, 4), mask);
    __m256i rl = _mm256_xor_si256(_mm256_xor_si256(_mm256_shuffle_epi8(tb[0], n0), _mm256_shuffle_epi8(tb[2], n1)),
                                  _mm256_xor_si256(_mm256_shuffle_epi8(tb[4], n2), _mm256_shuffle_epi8(tb[6], n3)));
    __m256i rh = _mm256_xor_si256(_mm256_xor_si256(_mm256_shuffle_epi8(tb[1], n0), _mm256_shuffle_epi8(tb[3], n1)),
                                  _mm256_xor_si256(_mm256_shuffle_epi8(tb[5], n2), _mm256_shuffle_epi8(tb[7], n3)));
    __m256i *d = (__m256i *)(dst + i);
    _mm256_storeu_si256(d, _mm256_xor_si256(_mm256_loadu_si256(d), _mm256_unpacklo_epi8(rl, rh)));
    _mm256_storeu_si256(d + 1, _mm256_xor_si256(_mm256_loadu_si256(d + 1), _mm256_unpackhi_epi8(rl, rh)));
  }
  madd_ssse3(dst + i, src + i, len - i, t);
}
#endif

typedef void (*kernel_fn)(uint8_t *, const uint8_t *, size_t, const tables_t *);
typedef struct {
  const char *name;
  kernel_fn fn;
  int scalar;
} kernel_t;

static kernel_t kernels_avail[3];
static int kernel_count = 0;

static void detect(void) {
#ifdef SPOOL_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) kernels_avail[kernel_count++] = (kernel_t){"avx2", madd_avx2, 0};
  if (__builtin_cpu_supports("ssse3")) kernels_avail[kernel_count++] = (kernel_t){"ssse3", madd_ssse3, 0};
#endif
  kernels_avail[kernel_count++] = (kernel_t){"scalar", madd_scalar, 1};
}

/* ---- node-api glue ---- */

static int fail(napi_env env, const char *msg) {
  napi_throw_type_error(env, NULL, msg);
  return -1;
}

static int bytes_arg(napi_env env, napi_value v, uint8_t **data, size_t *len, const char *what) {
  bool is;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return fail(env, what);
  napi_typedarray_type type;
  size_t length, offset;
  void *ptr;
  napi_value buffer;
  if (napi_get_typedarray_info(env, v, &type, &length, &ptr, &buffer, &offset) != napi_ok ||
      type != napi_uint8_array)
    return fail(env, what);
  *data = (uint8_t *)ptr;
  *len = length;
  return 0;
}

static int kernel_arg(napi_env env, size_t argc, napi_value *argv, size_t at, const kernel_t **k) {
  int32_t n = 0;
  if (argc > at && napi_get_value_int32(env, argv[at], &n) != napi_ok) return fail(env, "kernel must be a number");
  if (n < 0 || n > kernel_count) return fail(env, "this CPU has no such kernel (see kernels())");
  *k = &kernels_avail[n == 0 ? 0 : n - 1];
  return 0;
}

static napi_value mul_add(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *dst, *src;
  size_t dlen, slen;
  uint32_t factor;
  const kernel_t *k;
  if (argc < 3) return fail(env, "mulAdd(dst, src, factor[, kernel])"), NULL;
  if (bytes_arg(env, argv[0], &dst, &dlen, "mulAdd: dst must be a Uint8Array") ||
      bytes_arg(env, argv[1], &src, &slen, "mulAdd: src must be a Uint8Array"))
    return NULL;
  if (dlen != slen || dlen % 2) return fail(env, "mulAdd: dst and src need one even length"), NULL;
  if (napi_get_value_uint32(env, argv[2], &factor) != napi_ok || factor > 65535)
    return fail(env, "mulAdd: factor must be 0..65535"), NULL;
  if (kernel_arg(env, argc, argv, 3, &k)) return NULL;
  if (factor == 0) return NULL;
  tables_t t;
  make_tables((uint16_t)factor, &t, k->scalar);
  k->fn(dst, src, dlen, &t);
  return NULL;
}

#define MAX_MANY 4096

static int array_of_bytes(napi_env env, napi_value arr, uint8_t **out, uint32_t *n, size_t *len, const char *what) {
  bool is;
  if (napi_is_array(env, arr, &is) != napi_ok || !is || napi_get_array_length(env, arr, n) != napi_ok)
    return fail(env, what);
  if (*n > MAX_MANY) return fail(env, "mulAddMany: at most 4096 destinations and sources");
  for (uint32_t i = 0; i < *n; i++) {
    napi_value v;
    size_t l;
    if (napi_get_element(env, arr, i, &v) != napi_ok || bytes_arg(env, v, &out[i], &l, what)) return -1;
    if (*len == (size_t)-1) *len = l;
    if (l != *len || l % 2) return fail(env, "mulAddMany: all regions need one even length");
  }
  return 0;
}

static napi_value many(napi_env env, size_t argc, napi_value *argv, uint8_t **dsts, uint8_t **srcs);

static napi_value mul_add_many(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 3) return fail(env, "mulAddMany(dsts, srcs, factors[, kernel])"), NULL;
  uint8_t **dsts = malloc(2 * MAX_MANY * sizeof(uint8_t *)), **srcs = dsts + MAX_MANY;
  if (!dsts) return fail(env, "mulAddMany: out of memory"), NULL;
  napi_value done = many(env, argc, argv, dsts, srcs);
  free(dsts);
  return done;
}

static napi_value many(napi_env env, size_t argc, napi_value *argv, uint8_t **dsts, uint8_t **srcs) {
  uint32_t nd, ns;
  size_t len = (size_t)-1;
  if (array_of_bytes(env, argv[0], dsts, &nd, &len, "mulAddMany: dsts must be an array of Uint8Array") ||
      array_of_bytes(env, argv[1], srcs, &ns, &len, "mulAddMany: srcs must be an array of Uint8Array"))
    return NULL;
  bool is;
  napi_typedarray_type type;
  size_t flen, off;
  void *fptr;
  napi_value fbuf;
  if (napi_is_typedarray(env, argv[2], &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, argv[2], &type, &flen, &fptr, &fbuf, &off) != napi_ok ||
      type != napi_uint16_array || flen != (size_t)nd * ns)
    return fail(env, "mulAddMany: factors must be a Uint16Array of dsts.length * srcs.length"), NULL;
  const kernel_t *k;
  if (kernel_arg(env, argc, argv, 3, &k)) return NULL;
  if (nd == 0 || ns == 0 || len == 0) return NULL;
  const uint16_t *factors = (const uint16_t *)fptr;
  /* tables for every (destination, source) pair: 128 bytes each for SIMD, 1 KiB for scalar */
  size_t pairs = (size_t)nd * ns;
  tables_t *t = malloc(pairs * sizeof(tables_t));
  if (!t) return fail(env, "mulAddMany: out of memory"), NULL;
  for (size_t p = 0; p < pairs; p++)
    if (factors[p]) make_tables(factors[p], &t[p], k->scalar);
  for (size_t at = 0; at < len; at += BLOCK) {
    size_t n = len - at < BLOCK ? len - at : BLOCK;
    for (uint32_t j = 0; j < nd; j++)
      for (uint32_t b = 0; b < ns; b++) {
        size_t p = (size_t)j * ns + b;
        if (factors[p]) k->fn(dsts[j] + at, srcs[b] + at, n, &t[p]);
      }
  }
  free(t);
  return NULL;
}

static napi_value kernels(napi_env env, napi_callback_info info) {
  napi_value arr;
  napi_create_array_with_length(env, kernel_count, &arr);
  for (int i = 0; i < kernel_count; i++) {
    napi_value s;
    napi_create_string_utf8(env, kernels_avail[i].name, NAPI_AUTO_LENGTH, &s);
    napi_set_element(env, arr, i, s);
  }
  return arr;
}

static napi_value init(napi_env env, napi_value exports) {
  static int ready = 0;
  if (!ready) {
    gf_init();
    detect();
    ready = 1;
  }
  napi_property_descriptor props[] = {
      {"mulAdd", NULL, mul_add, NULL, NULL, NULL, napi_default, NULL},
      {"mulAddMany", NULL, mul_add_many, NULL, NULL, NULL, napi_default, NULL},
      {"kernels", NULL, kernels, NULL, NULL, NULL, napi_default, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
