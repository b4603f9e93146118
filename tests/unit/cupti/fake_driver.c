/* A stand-in for libcuda.so.1 for the exec test on machines without a GPU: it reports one GPU and, like
   the real driver, loads CUDA_INJECTION64_PATH in cuInit and calls its InitializeInjection. Built as a
   shared library by exec_cli_test.sh; with -DFAKE_CUDA_PROGRAM it is instead a program that calls cuInit. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FAKE_CUDA_PROGRAM
int cuInit(unsigned flags) {
  (void)flags;
  const char* path = getenv("CUDA_INJECTION64_PATH");
  if (path != NULL) {
    void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    int (*init)(void) = lib != NULL ? (int (*)(void))dlsym(lib, "InitializeInjection") : NULL;
    if (init != NULL) init();
  }
  return 0;
}
int cuDeviceGetCount(int* n) { *n = 1; return 0; }
int cuDeviceGet(int* d, int i) { *d = i; return 0; }
int cuDeviceGetName(char* name, int len, int d) { (void)d; snprintf(name, (size_t)len, "Fake GPU"); return 0; }
int cuGetErrorString(int e, const char** s) { (void)e; *s = "fake"; return 0; }
#else
int main(void) {
  void* lib = dlopen("libcuda.so.1", RTLD_NOW);
  if (lib == NULL) { fprintf(stderr, "no libcuda.so.1\n"); return 3; }
  int (*init)(unsigned) = (int (*)(unsigned))dlsym(lib, "cuInit");
  return init(0) == 0 ? 0 : 4;
}
#endif
