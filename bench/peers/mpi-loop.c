/* mpi-loop.c: the smallest timed loops of the MPI calls `supernode bench`
 * makes, to show what the tool adds around them: the same calls, timed
 * only around batches of iterations, nothing else in the loop.
 *
 *   mpi-loop allreduce|pingpong|send BYTES BATCHES PER_BATCH [multiple]
 *
 * allreduce: MPI_Allreduce of BYTES/4 floats (sum); pingpong: rank 0 and
 * rank 1 bounce BYTES (the time is half the round trip); send: rank 0
 * sends BYTES, rank 1 answers with an empty message. After a warm-up
 * batch, BATCHES batches of PER_BATCH calls run back to back; rank 0
 * prints "<what> <bytes> <median> <min>": the median and the smallest of
 * the batches' mean seconds per call. The median of batch means shrugs off
 * the odd preempted iteration on a shared machine, as the bench's median
 * does. Built by bench/peers/allreduce-vs-loop.sh with mpicc -O2. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

static void one(const char *what, int rank, char *sbuf, char *rbuf, int bytes)
{
    char ack = 0;

    if (!strcmp(what, "allreduce")) {
        MPI_Allreduce(sbuf, rbuf, bytes / 4, MPI_FLOAT, MPI_SUM,
                      MPI_COMM_WORLD);
    } else if (!strcmp(what, "pingpong")) {
        if (rank == 0) {
            MPI_Send(sbuf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
            MPI_Recv(rbuf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(sbuf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
        }
    } else if (rank == 0) {
        MPI_Send(sbuf, bytes, MPI_BYTE, 1, 7, MPI_COMM_WORLD);
        MPI_Recv(&ack, 0, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Send(&ack, 0, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    }
}

int main(int argc, char **argv)
{
    int rank, provided, bytes, batches, per;
    char *sbuf, *rbuf;
    double *mean;
    const char *what;

    if (argc < 5) {
        fprintf(stderr, "usage: mpi-loop allreduce|pingpong|send BYTES "
                        "BATCHES PER_BATCH [multiple]\n");
        return 2;
    }
    what = argv[1];
    bytes = atoi(argv[2]);
    batches = atoi(argv[3]);
    per = atoi(argv[4]);
    if (bytes < 4 || batches < 1 || per < 1)
        return 2;
    MPI_Init_thread(&argc, &argv,
                    argc > 5 && !strcmp(argv[5], "multiple")
                        ? MPI_THREAD_MULTIPLE
                        : MPI_THREAD_SINGLE,
                    &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    sbuf = calloc(1, (size_t)bytes);
    rbuf = calloc(1, (size_t)bytes);
    mean = calloc((size_t)batches, sizeof(*mean));
    for (int i = 0; i < per; i++) /* warm-up */
        one(what, rank, sbuf, rbuf, bytes);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = 0; b < batches; b++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < per; i++)
            one(what, rank, sbuf, rbuf, bytes);
        mean[b] = (MPI_Wtime() - t0) / per;
        if (!strcmp(what, "pingpong"))
            mean[b] /= 2;
    }
    qsort(mean, (size_t)batches, sizeof(*mean), cmp);
    if (rank == 0)
        printf("%s %d %.6e %.6e\n", what, bytes,
               batches % 2 ? mean[batches / 2]
                           : (mean[batches / 2 - 1] + mean[batches / 2]) / 2,
               mean[0]);
    free(mean);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
