/* Test-only stand-in for Windows' system icuuc.dll under Wine (Wine ships no ICU).
   Qt6Core imports only the converter functions (ucnv_*); every converter "fails to open",
   so Qt falls back to its own UTF-8/UTF-16/Latin-1 codecs. Never shipped. */
#include <stddef.h>
typedef int UErrorCode;
#define U_FILE_ACCESS_ERROR 4
#define EXPORT __declspec(dllexport)
EXPORT void *ucnv_open(const char *name, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; return NULL; }
EXPORT void ucnv_close(void *c) {}
EXPORT void UCNV_FROM_U_CALLBACK_SUBSTITUTE(void) {}
EXPORT void UCNV_TO_U_CALLBACK_SUBSTITUTE(void) {}
EXPORT void ucnv_reset(void *c) {}
EXPORT signed char ucnv_getMaxCharSize(void *c) { return 1; }
EXPORT const char *ucnv_getName(void *c, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; return NULL; }
EXPORT void ucnv_getToUCallBack(void *c, void **a, const void **b) { if (a) *a = NULL; if (b) *b = NULL; }
EXPORT void ucnv_getFromUCallBack(void *c, void **a, const void **b) { if (a) *a = NULL; if (b) *b = NULL; }
EXPORT void ucnv_setToUCallBack(void *c, void *n, const void *nc, void **o, const void **oc, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_setFromUCallBack(void *c, void *n, const void *nc, void **o, const void **oc, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_cbToUWriteUChars(void *a, const void *b, int c, int d, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_toUnicode(void *c, void **t, const void *tl, const char **s, const char *sl, int *o, signed char f, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
EXPORT void ucnv_cbFromUWriteUChars(void *a, const void **b, const void *c, int d, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
EXPORT int ucnv_toUCountPending(void *c, UErrorCode *err) { return 0; }
EXPORT int ucnv_fromUCountPending(void *c, UErrorCode *err) { return 0; }
EXPORT const char *ucnv_getStandardName(const char *n, const char *s, UErrorCode *err) { return NULL; }
EXPORT const char *ucnv_getAvailableName(int n) { return NULL; }
EXPORT int ucnv_countAvailable(void) { return 0; }
EXPORT void ucnv_fromUnicode(void *c, char **t, const char *tl, const void **s, const void *sl, int *o, signed char f, UErrorCode *err) { if (err) *err = U_FILE_ACCESS_ERROR; }
