/* banned.h: C library calls the project does not use, each with what it
 * uses instead. Calling one is a compile error naming it. util.h includes
 * this last, so every source that follows the house include order (system
 * headers first, then the project's) gets it after the prototypes it
 * shadows.
 *
 *   strcpy, strcat, strncpy, strncat  sn_strlcpy, sn_buf_*
 *   sprintf, vsprintf                 snprintf, sn_buf_printf
 *   strtok, strtok_r                  sn_tok_next
 *   gmtime, localtime, ctime, asctime the _r forms
 */
#ifndef SN_BANNED_H
#define SN_BANNED_H

#define SN_BANNED(func) sorry_##func##_is_banned_see_sn_banned_h

#undef strcpy
#define strcpy(x, y) SN_BANNED(strcpy)
#undef strcat
#define strcat(x, y) SN_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) SN_BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) SN_BANNED(strncat)
#undef sprintf
#define sprintf(...) SN_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) SN_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) SN_BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) SN_BANNED(strtok_r)
#undef gmtime
#define gmtime(t) SN_BANNED(gmtime)
#undef localtime
#define localtime(t) SN_BANNED(localtime)
#undef ctime
#define ctime(t) SN_BANNED(ctime)
#undef asctime
#define asctime(t) SN_BANNED(asctime)

#endif
