;; The preflop engine's projection (`CfrSolver.project`) in WebAssembly with 128-bit SIMD.
;;
;; Compiled at build time (scripts/build-kernels.mjs, with the wabt package) into src/engine/kernels-wasm.ts;
;; src/engine/kernels.ts lays out the memory and calls it. Every argument named like a vector is a byte
;; address in that memory, every vector float64.
;;
;;   out[a] = norm[a] * sum over b with r[b] != 0, in increasing b, of mt[b * n + a] * r[b]
;;
;; Each output is built exactly as the JavaScript loop builds it: +0, then for every nonzero r[b] in
;; increasing b one rounded multiply and one rounded add (f64x2.mul then f64x2.add, never fused), then one
;; rounded multiply by norm[a]. Lanes are consecutive outputs a, a + 1 with r[b] broadcast, so SIMD changes
;; only how many outputs advance at once, never a value: the results are those of the JavaScript loop bit
;; for bit (test/kernels.test.ts).
;;
;; Outputs go in blocks of eight (four f64x2 accumulators kept in registers over every nonzero b), then in
;; pairs. With an odd n the last pair reads one double past a row, past `norm` and writes one past `out`
;; (kernels.ts pads every area by 16 bytes); that lane is discarded.
;;
;; `cycle` is the board-conditioned cycle term of `CfrSolver.potShare` (its `fill`), the elementwise loops in
;; f64x2 (the same operations per lane) around `project`.
;;
;; `projectSparse` is `CfrSolver.projectW` on a card-removal matrix W stored sparsely (full minus rank
;; conflicts), in scalar float64 with the JavaScript loop's operations in its order.

(module
  (import "env" "memory" (memory 1))

  ;; $list: scratch of 32 bytes per class. Each nonzero r[b] becomes an entry { r[b] splat (16 bytes), the
  ;; byte address of row b of mt (4 bytes) }, in increasing b.
  (func $project (export "project")
    (param $mt i32) (param $r i32) (param $out i32) (param $n i32) (param $norm i32) (param $list i32)
    (local $b i32) (local $row i32) (local $stride i32) (local $rb f64)
    (local $e i32) (local $end i32) (local $a i32) (local $full i32) (local $p i32)
    (local $x v128) (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    ;; The nonzero entries of r.
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $row (local.get $mt))
    (local.set $e (local.get $list))
    (block $listed
      (loop $classes
        (br_if $listed (i32.ge_u (local.get $b) (local.get $n)))
        (local.set $rb (f64.load (i32.add (local.get $r) (i32.shl (local.get $b) (i32.const 3)))))
        (if (f64.ne (local.get $rb) (f64.const 0))
          (then
            (v128.store (local.get $e) (f64x2.splat (local.get $rb)))
            (i32.store offset=16 (local.get $e) (local.get $row))
            (local.set $e (i32.add (local.get $e) (i32.const 32)))))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (local.set $row (i32.add (local.get $row) (local.get $stride)))
        (br $classes)))
    (local.set $end (local.get $e))
    ;; Blocks of eight outputs: $a is the block's byte offset in a row, in `out` and in `norm`.
    (local.set $full (i32.shl (i32.and (local.get $n) (i32.const -8)) (i32.const 3)))
    (block $blocksDone
      (loop $blocks
        (br_if $blocksDone (i32.ge_u (local.get $a) (local.get $full)))
        (local.set $acc0 (v128.const i64x2 0 0))
        (local.set $acc1 (v128.const i64x2 0 0))
        (local.set $acc2 (v128.const i64x2 0 0))
        (local.set $acc3 (v128.const i64x2 0 0))
        (local.set $e (local.get $list))
        (block $sumDone
          (loop $sum
            (br_if $sumDone (i32.ge_u (local.get $e) (local.get $end)))
            (local.set $x (v128.load (local.get $e)))
            (local.set $p (i32.add (i32.load offset=16 (local.get $e)) (local.get $a)))
            (local.set $acc0 (f64x2.add (local.get $acc0) (f64x2.mul (v128.load (local.get $p)) (local.get $x))))
            (local.set $acc1
              (f64x2.add (local.get $acc1) (f64x2.mul (v128.load offset=16 (local.get $p)) (local.get $x))))
            (local.set $acc2
              (f64x2.add (local.get $acc2) (f64x2.mul (v128.load offset=32 (local.get $p)) (local.get $x))))
            (local.set $acc3
              (f64x2.add (local.get $acc3) (f64x2.mul (v128.load offset=48 (local.get $p)) (local.get $x))))
            (local.set $e (i32.add (local.get $e) (i32.const 32)))
            (br $sum)))
        (local.set $p (i32.add (local.get $norm) (local.get $a)))
        (local.set $e (i32.add (local.get $out) (local.get $a)))
        (v128.store (local.get $e) (f64x2.mul (local.get $acc0) (v128.load (local.get $p))))
        (v128.store offset=16 (local.get $e) (f64x2.mul (local.get $acc1) (v128.load offset=16 (local.get $p))))
        (v128.store offset=32 (local.get $e) (f64x2.mul (local.get $acc2) (v128.load offset=32 (local.get $p))))
        (v128.store offset=48 (local.get $e) (f64x2.mul (local.get $acc3) (v128.load offset=48 (local.get $p))))
        (local.set $a (i32.add (local.get $a) (i32.const 64)))
        (br $blocks)))
    ;; The rest in pairs (the last one half used when n is odd).
    (block $pairsDone
      (loop $pairs
        (br_if $pairsDone (i32.ge_u (local.get $a) (local.get $stride)))
        (local.set $acc0 (v128.const i64x2 0 0))
        (local.set $e (local.get $list))
        (block $sumDone
          (loop $sum
            (br_if $sumDone (i32.ge_u (local.get $e) (local.get $end)))
            (local.set $p (i32.add (i32.load offset=16 (local.get $e)) (local.get $a)))
            (local.set $acc0
              (f64x2.add (local.get $acc0) (f64x2.mul (v128.load (local.get $p)) (v128.load (local.get $e)))))
            (local.set $e (i32.add (local.get $e) (i32.const 32)))
            (br $sum)))
        (v128.store (i32.add (local.get $out) (local.get $a))
          (f64x2.mul (local.get $acc0) (v128.load (i32.add (local.get $norm) (local.get $a)))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (br $pairs))))

  ;; out[a] = norm[a] * (combos[a] * total - sum over k in [start[a], start[a + 1]) of cnt[k] * r[cls[k]]),
  ;; total = sum_b combos[b] * r[b] (from +0, in increasing b; the conflicts in their order). $start: n + 1
  ;; int32 entry indices; $cls: int32 byte offsets (8 * class) into r; $cnt: float64 counts.
  (func (export "projectSparse")
    (param $r i32) (param $out i32) (param $n i32) (param $norm i32) (param $combos i32) (param $start i32)
    (param $cls i32) (param $cnt i32)
    (local $i i32) (local $total f64) (local $s f64) (local $k i32) (local $end i32) (local $at i32)
    (block $summed
      (loop $sum
        (br_if $summed (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 3)))
        (local.set $total
          (f64.add (local.get $total)
            (f64.mul (f64.load (i32.add (local.get $combos) (local.get $at)))
              (f64.load (i32.add (local.get $r) (local.get $at))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $sum)))
    (local.set $i (i32.const 0))
    (local.set $end (i32.load (local.get $start)))
    (block $done
      (loop $classes
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.shl (local.get $i) (i32.const 3)))
        (local.set $s (f64.mul (f64.load (i32.add (local.get $combos) (local.get $at))) (local.get $total)))
        (local.set $k (local.get $end))
        (local.set $end (i32.load offset=4 (i32.add (local.get $start) (i32.shl (local.get $i) (i32.const 2)))))
        (block $conflictsDone
          (loop $conflicts
            (br_if $conflictsDone (i32.ge_u (local.get $k) (local.get $end)))
            (local.set $s
              (f64.sub (local.get $s)
                (f64.mul (f64.load (i32.add (local.get $cnt) (i32.shl (local.get $k) (i32.const 3))))
                  (f64.load
                    (i32.add (local.get $r) (i32.load (i32.add (local.get $cls) (i32.shl (local.get $k) (i32.const 2)))))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $conflicts)))
        (f64.store (i32.add (local.get $out) (local.get $at))
          (f64.mul (local.get $s) (f64.load (i32.add (local.get $norm) (local.get $at)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $classes))))

  ;; result = sum over buckets b of project(mats[b], g_b), in increasing b from +0, where
  ;;   g_b[x] = rm[x] * piT[b * n + x], then for each of the R other opponents i in turn
  ;;   g_b[x] *= (pl_i[x] > 0 ? u_{b,i}[x] / pl_i[x] : +0).
  ;; Vectors are $stride bytes apart: u_{b,i} at $us + (b * R + i) * $stride, pl_i at $pls + i * $stride;
  ;; $mats holds the K int32 matrix addresses. $g and $part are scratch vectors, $list `project`'s.
  (func (export "cycle")
    (param $K i32) (param $R i32) (param $n i32) (param $stride i32) (param $rm i32) (param $piT i32)
    (param $us i32) (param $pls i32) (param $mats i32) (param $result i32) (param $g i32) (param $part i32)
    (param $norm i32) (param $list i32)
    (local $b i32) (local $i i32) (local $x i32) (local $bytes i32) (local $u i32) (local $pl i32)
    (local $p v128)
    (local.set $bytes (i32.shl (local.get $n) (i32.const 3)))
    (block $cleared
      (loop $clear
        (br_if $cleared (i32.ge_u (local.get $x) (local.get $bytes)))
        (v128.store (i32.add (local.get $result) (local.get $x)) (v128.const i64x2 0 0))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (br $clear)))
    (block $bucketsDone
      (loop $buckets
        (br_if $bucketsDone (i32.ge_u (local.get $b) (local.get $K)))
        ;; g = rm * pi[., b]
        (local.set $x (i32.const 0))
        (block $gDone
          (loop $gLoop
            (br_if $gDone (i32.ge_u (local.get $x) (local.get $bytes)))
            (v128.store (i32.add (local.get $g) (local.get $x))
              (f64x2.mul (v128.load (i32.add (local.get $rm) (local.get $x)))
                (v128.load
                  (i32.add (i32.add (local.get $piT) (i32.mul (local.get $b) (local.get $bytes))) (local.get $x)))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $gLoop)))
        ;; g *= (pl > 0 ? u / pl : +0) for each other opponent
        (local.set $i (i32.const 0))
        (block $restDone
          (loop $rest
            (br_if $restDone (i32.ge_u (local.get $i) (local.get $R)))
            (local.set $u
              (i32.add (local.get $us)
                (i32.mul (i32.add (i32.mul (local.get $b) (local.get $R)) (local.get $i)) (local.get $stride))))
            (local.set $pl (i32.add (local.get $pls) (i32.mul (local.get $i) (local.get $stride))))
            (local.set $x (i32.const 0))
            (block $divDone
              (loop $div
                (br_if $divDone (i32.ge_u (local.get $x) (local.get $bytes)))
                (local.set $p (v128.load (i32.add (local.get $pl) (local.get $x))))
                (v128.store (i32.add (local.get $g) (local.get $x))
                  (f64x2.mul (v128.load (i32.add (local.get $g) (local.get $x)))
                    (v128.and
                      (f64x2.div (v128.load (i32.add (local.get $u) (local.get $x))) (local.get $p))
                      (f64x2.gt (local.get $p) (v128.const i64x2 0 0)))))
                (local.set $x (i32.add (local.get $x) (i32.const 16)))
                (br $div)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $rest)))
        (call $project
          (i32.load (i32.add (local.get $mats) (i32.shl (local.get $b) (i32.const 2))))
          (local.get $g) (local.get $part) (local.get $n) (local.get $norm) (local.get $list))
        ;; result += part
        (local.set $x (i32.const 0))
        (block $addDone
          (loop $add
            (br_if $addDone (i32.ge_u (local.get $x) (local.get $bytes)))
            (v128.store (i32.add (local.get $result) (local.get $x))
              (f64x2.add (v128.load (i32.add (local.get $result) (local.get $x)))
                (v128.load (i32.add (local.get $part) (local.get $x)))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $add)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $buckets)))))
