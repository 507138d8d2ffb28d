#if defined(CONFIG_A) || \
 defined(CONFIG_B) /* x
 */
int a;
#elif IS_ENABLED(CONFIG_C)
#else
#ifndef CONFIG_D
#endif
#endif
