/* What this machine does to memory left alone for a moment (issues 22 and 25's single cold answers).
 *
 *   cc -O2 -o /tmp/idle-touch bench/idle-touch.c && /tmp/idle-touch <pause ms> <MB>
 *
 * Fills <MB> of memory once, then twelve times: sleeps <pause ms>, reads every cache line of it three
 * times and does a little arithmetic, and prints how long that took (ms). The work is the same each
 * time; on a quiet real machine so is its time. On a virtual machine whose host reclaims or tracks the
 * memory of an idle guest, the first touch after a pause costs more, and the process sees no page
 * fault of its own (compare the minor faults `/usr/bin/time -f %R` counts with and without a pause). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: idle-touch <pause ms> <MB>\n");
    return 2;
  }
  long pause_ms = atol(argv[1]);
  size_t words = (size_t)atol(argv[2]) * 1024 * 1024 / sizeof(long);
  volatile long *memory = malloc(words * sizeof(long));
  if (memory == NULL) return 1;
  for (size_t i = 0; i < words; i++) memory[i] = (long)i;
  long sum = 0;
  for (int round = 0; round < 12; round++) {
    usleep((useconds_t)(pause_ms * 1000));
    double started = now_ms();
    for (int pass = 0; pass < 3; pass++)
      for (size_t i = 0; i < words; i += 8) sum += memory[i]; /* one read a 64-byte line */
    for (long i = 0; i < 2000000; i++) sum += i * i;
    printf("%.2f ", now_ms() - started);
    fflush(stdout);
  }
  printf("\n");
  return sum == 42; /* keeps the reads */
}
