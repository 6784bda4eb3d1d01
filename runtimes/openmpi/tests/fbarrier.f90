! MPI_BARRIER from Fortran: reaches the communicator's coll barrier (coll/gba_barrier) like C
! does; test.sh checks that the fabric's BARRIERS_COMPLETED grew by the number of barriers.
program fbarrier
  use mpi
  implicit none
  integer :: ierr, rank, size, i, n
  character(len=32) :: arg
  n = 1000
  if (command_argument_count() >= 1) then
     call get_command_argument(1, arg)
     read (arg, *) n
  end if
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
  do i = 1, n
     call MPI_BARRIER(MPI_COMM_WORLD, ierr)
     if (ierr /= MPI_SUCCESS) then
        print *, 'FAIL: MPI_BARRIER returned ', ierr
        call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
     end if
  end do
  if (rank == 0) print '(a,i0,a,i0,a)', 'fbarrier: ', n, ' MPI_BARRIER calls on ', size, ' ranks'
  call MPI_FINALIZE(ierr)
end program fbarrier
