// RUN: aot-opt %s --split-input-file --aot-parallelize-loops | FileCheck %s

// After bufferization, each scf.for that tiling marked aot.parallel becomes
// an OpenMP worksharing loop (through scf.parallel and upstream's
// convert-scf-to-openmp) when the module's aot.threads is not 1, provided it
// carries no values and the scratch buffers it writes can be given to each
// iteration. A dynamic trip count with a minimum in the mark gets an `if`
// clause. The marks are removed in every case.

// Two threads: a num_threads clause, the loop's bounds on the loop nest, the
// body unchanged.
// CHECK-LABEL: func.func @two_threads
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG:     %[[TWO:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK:         omp.parallel num_threads(%[[TWO]] : i32) {
// CHECK-NEXT:      omp.wsloop {
// CHECK-NEXT:        omp.loop_nest (%[[I:.*]]) : index = (%[[C0]]) to (%[[C512]]) step (%[[C1]]) {
// CHECK:               vector.transfer_read %{{.*}}[%[[I]], %[[C0]]]
// CHECK:               vector.transfer_write %{{.*}}, %{{.*}}[%[[I]], %[[C0]]]
// CHECK:               omp.yield
module attributes {aot.threads = 2 : i64} {
  func.func @two_threads(%x: memref<512x32xf32>, %y: memref<512x32xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %p = ub.poison : f32
    scf.for %i = %c0 to %c512 step %c1 {
      %v = vector.transfer_read %x[%i, %c0], %p {in_bounds = [true]} : memref<512x32xf32>, vector<32xf32>
      %e = arith.addf %v, %v : vector<32xf32>
      vector.transfer_write %e, %y[%i, %c0] {in_bounds = [true]} : vector<32xf32>, memref<512x32xf32>
    } {aot.parallel = 0 : i64}
    return
  }
}

// -----

// aot.threads = 0: the runtime's thread count, so no num_threads clause. A
// loop without the mark stays sequential.
// CHECK-LABEL: func.func @runtime_threads
// CHECK:         omp.parallel {
// CHECK:           omp.loop_nest
// CHECK:         scf.for
// CHECK-NOT:       omp.
// CHECK:         return
module attributes {aot.threads = 0 : i64} {
  func.func @runtime_threads(%x: memref<1024xf32>, %y: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cst = arith.constant dense<1.0> : vector<16xf32>
    scf.for %i = %c0 to %c1024 step %c16 {
      vector.transfer_write %cst, %x[%i] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    } {aot.parallel = 0 : i64}
    scf.for %i = %c0 to %c1024 step %c16 {
      vector.transfer_write %cst, %y[%i] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    }
    return
  }
}

// -----

// One thread: the loop stays sequential and no OpenMP is used, but the
// mark goes.
// CHECK-LABEL: func.func @one_thread
// CHECK-NOT:     omp.
// CHECK:         scf.for
// CHECK-NOT:     aot.parallel
// CHECK-NOT:     omp.
module attributes {aot.threads = 1 : i64} {
  func.func @one_thread(%x: memref<1024xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %cst = arith.constant dense<1.0> : vector<16xf32>
    scf.for %i = %c0 to %c1024 step %c16 {
      vector.transfer_write %cst, %x[%i] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
    } {aot.parallel = 0 : i64}
    return
  }
}

// -----

// No aot.threads on the module: sequential, as with one thread.
// CHECK-LABEL: func.func @no_thread_count
// CHECK-NOT:     omp.
// CHECK:         scf.for
// CHECK-NOT:     aot.parallel
// CHECK-NOT:     omp.
func.func @no_thread_count(%x: memref<1024xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c1024 = arith.constant 1024 : index
  %cst = arith.constant dense<1.0> : vector<16xf32>
  scf.for %i = %c0 to %c1024 step %c16 {
    vector.transfer_write %cst, %x[%i] {in_bounds = [true]} : vector<16xf32>, memref<1024xf32>
  } {aot.parallel = 0 : i64}
  return
}

// -----

// A dynamic trip count whose mark asks for at least 2048 trips: the trips
// are computed before the loop, ceil((ub - lb) / step), and compared in the
// `if` clause, so that fewer rows run on the calling thread alone.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[N:.*]] = memref.dim %{{.*}}, %[[C0]]
// CHECK:         %[[SPAN:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK:         %[[TRIPS:.*]] = arith.ceildivui %[[SPAN]], %[[C1]] : index
// CHECK:         %[[MIN:.*]] = arith.constant 2048 : index
// CHECK:         %[[ENOUGH:.*]] = arith.cmpi uge, %[[TRIPS]], %[[MIN]] : index
// CHECK:         omp.parallel if(%[[ENOUGH]]) num_threads(%{{.*}} : i32) {
// CHECK:           omp.loop_nest (%{{.*}}) : index = (%[[C0]]) to (%[[N]]) step (%[[C1]])
module attributes {aot.threads = 4 : i64} {
  func.func @dynamic_rows(%x: memref<?x64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %cst = arith.constant dense<0.0> : vector<64xf32>
    %n = memref.dim %x, %c0 : memref<?x64xf32>
    scf.for %i = %c0 to %n step %c1 {
      vector.transfer_write %cst, %x[%i, %c0] {in_bounds = [true]} : vector<64xf32>, memref<?x64xf32>
    } {aot.parallel = 2048 : i64}
    return
  }
}

// -----

// A marked loop that still carries a value (bufferization did not write in
// place) stays sequential; its mark goes.
// CHECK-LABEL: func.func @carries_value
// CHECK-NOT:     omp.
// CHECK:         scf.for {{.*}} iter_args
// CHECK-NOT:     aot.parallel
// CHECK-NOT:     omp.
module attributes {aot.threads = 2 : i64} {
  func.func @carries_value(%x: memref<1024xf32>) -> vector<16xf32> {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %p = ub.poison : f32
    %zero = arith.constant dense<0.0> : vector<16xf32>
    %r = scf.for %i = %c0 to %c1024 step %c16 iter_args(%acc = %zero) -> (vector<16xf32>) {
      %v = vector.transfer_read %x[%i], %p {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
      %s = arith.addf %acc, %v : vector<16xf32>
      scf.yield %s : vector<16xf32>
    } {aot.parallel = 0 : i64}
    return %r : vector<16xf32>
  }
}

// -----

// A scratch buffer allocated before the loop and only used in it becomes a
// stack buffer of each iteration; its heap allocation and deallocation go.
// CHECK-LABEL: func.func @scratch_buffer
// CHECK-NOT:     memref.alloc()
// CHECK:         omp.loop_nest
// CHECK:           memref.alloca_scope
// CHECK:             %[[STACK:.*]] = memref.alloca() {alignment = 64 : i64} : memref<3x16xf32>
// CHECK:             vector.transfer_write %{{.*}}, %[[STACK]]
// CHECK:             vector.transfer_read %[[STACK]]
// CHECK-NOT:     memref.dealloc
module attributes {aot.threads = 2 : i64} {
  func.func @scratch_buffer(%x: memref<512x3x16xf32>, %y: memref<512x3xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c512 = arith.constant 512 : index
    %p = ub.poison : f32
    %zero = arith.constant dense<0.0> : vector<3xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<3x16xf32>
    scf.for %i = %c0 to %c512 step %c1 {
      %v = vector.transfer_read %x[%i, %c0, %c0], %p {in_bounds = [true, true]} : memref<512x3x16xf32>, vector<3x16xf32>
      vector.transfer_write %v, %alloc[%c0, %c0] {in_bounds = [true, true]} : vector<3x16xf32>, memref<3x16xf32>
      %w = vector.transfer_read %alloc[%c0, %c0], %p {in_bounds = [true, true]} : memref<3x16xf32>, vector<3x16xf32>
      %s = vector.multi_reduction <add>, %w, %zero [1] : vector<3x16xf32> to vector<3xf32>
      vector.transfer_write %s, %y[%i, %c0] {in_bounds = [true]} : vector<3xf32>, memref<512x3xf32>
    } {aot.parallel = 0 : i64}
    memref.dealloc %alloc : memref<3x16xf32>
    return
  }
}

// -----

// A scratch buffer that is read after the loop cannot be split between
// iterations: the loop stays sequential and the buffer on the heap.
// CHECK-LABEL: func.func @buffer_read_after
// CHECK-NOT:     omp.
// CHECK:         %[[BUF:.*]] = memref.alloc() {{.*}} : memref<16xf32>
// CHECK:         scf.for
// CHECK:           vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK-NOT:     aot.parallel
// CHECK:         vector.transfer_read %[[BUF]]
// CHECK:         memref.dealloc %[[BUF]]
module attributes {aot.threads = 2 : i64} {
  func.func @buffer_read_after(%x: memref<1024xf32>, %y: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c1024 = arith.constant 1024 : index
    %p = ub.poison : f32
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
    scf.for %i = %c0 to %c1024 step %c16 {
      %v = vector.transfer_read %x[%i], %p {in_bounds = [true]} : memref<1024xf32>, vector<16xf32>
      vector.transfer_write %v, %alloc[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
    } {aot.parallel = 0 : i64}
    %last = vector.transfer_read %alloc[%c0], %p {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
    vector.transfer_write %last, %y[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
    memref.dealloc %alloc : memref<16xf32>
    return
  }
}

// -----

// The same buffer written by a loop marked aot.disjoint_writes, whose
// iterations each write their own part of it (a result of the dispatch, not
// scratch): the loop runs on threads and the buffer stays shared, also where
// it is read after an op around the loop (here an scf.if) and is dynamically
// sized. Both marks go.
// CHECK-LABEL: func.func @disjoint_writes
// CHECK:         %[[BUF:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<?xf32>
// CHECK:         scf.if
// CHECK:           omp.parallel
// CHECK:             omp.loop_nest
// CHECK:               vector.transfer_write %{{.*}}, %[[BUF]]
// CHECK-NOT:     aot.disjoint_writes
// CHECK-NOT:     aot.parallel
// CHECK:         vector.transfer_read %[[BUF]]
// CHECK:         memref.dealloc %[[BUF]]
module attributes {aot.threads = 2 : i64} {
  func.func @disjoint_writes(%x: memref<?xf32>, %y: memref<16xf32>, %go: i1) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %p = ub.poison : f32
    %n = memref.dim %x, %c0 : memref<?xf32>
    %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    scf.if %go {
      scf.for %i = %c0 to %n step %c16 {
        %v = vector.transfer_read %x[%i], %p {in_bounds = [true]} : memref<?xf32>, vector<16xf32>
        vector.transfer_write %v, %alloc[%i] {in_bounds = [true]} : vector<16xf32>, memref<?xf32>
      } {aot.disjoint_writes, aot.parallel = 0 : i64}
    }
    %first = vector.transfer_read %alloc[%c0], %p {in_bounds = [true]} : memref<?xf32>, vector<16xf32>
    vector.transfer_write %first, %y[%c0] {in_bounds = [true]} : vector<16xf32>, memref<16xf32>
    memref.dealloc %alloc : memref<?xf32>
    return
  }
}

// -----

// A dynamic loop over column blocks with its loop over row blocks as the
// fallback: the outer loop runs on threads from two trips on; the inner one
// where the outer makes a single trip and it makes two or more. The
// fallback's mark goes too.
// CHECK-LABEL: func.func @fallback
// CHECK:         %[[M:.*]] = memref.dim
// CHECK:         %[[N:.*]] = memref.dim
// CHECK:         %[[COLS:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK:         %[[TWO:.*]] = arith.constant 2 : index
// CHECK:         %[[OUTER:.*]] = arith.cmpi uge, %[[COLS]], %[[TWO]] : index
// CHECK:         omp.parallel if(%[[OUTER]])
// CHECK:           omp.loop_nest (%{{.*}}) : index = (%{{.*}}) to (%[[N]]) step
// CHECK:             %[[TRUE:.*]] = arith.constant true
// CHECK:             %[[SINGLE:.*]] = arith.xori %[[OUTER]], %[[TRUE]] : i1
// CHECK:             %[[ROWS:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK:             %[[TWO_:.*]] = arith.constant 2 : index
// CHECK:             %[[MANY:.*]] = arith.cmpi uge, %[[ROWS]], %[[TWO_]] : index
// CHECK:             %[[INNER:.*]] = arith.andi %[[SINGLE]], %[[MANY]] : i1
// CHECK:             omp.parallel if(%[[INNER]])
// CHECK:               omp.loop_nest (%{{.*}}) : index = (%{{.*}}) to (%[[M]]) step
// CHECK-NOT:     aot.parallel
// CHECK:         return
module attributes {aot.threads = 2 : i64} {
  func.func @fallback(%x: memref<?x?xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %cst = arith.constant 0.0 : f32
    %m = memref.dim %x, %c0 : memref<?x?xf32>
    %n = memref.dim %x, %c1 : memref<?x?xf32>
    scf.for %j = %c0 to %n step %c256 {
      scf.for %i = %c0 to %m step %c64 {
        memref.store %cst, %x[%i, %j] : memref<?x?xf32>
      } {aot.parallel_fallback}
    } {aot.parallel = 0 : i64}
    return
  }
}
