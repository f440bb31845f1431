/* Functions vmsuite does not use: unbounded string writes (after git's banned.h). */
#ifndef VMS_BANNED_H
#define VMS_BANNED_H
#define VMS_BANNED(func) sorry_##func##_is_banned_use_snprintf_or_strbuf
#undef strcpy
#define strcpy(x, y) VMS_BANNED(strcpy)
#undef strcat
#define strcat(x, y) VMS_BANNED(strcat)
#undef sprintf
#define sprintf(...) VMS_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) VMS_BANNED(vsprintf)
#undef gets
#define gets(x) VMS_BANNED(gets)
#endif
