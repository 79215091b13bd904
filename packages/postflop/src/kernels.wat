;; The engine's per-hand loops in WebAssembly with 128-bit SIMD, four hands per step (f32x4).
;;
;; Compiled at build time (scripts/build-kernels.mjs, with the wabt package) into src/kernels-wasm.ts; see
;; src/kernels.ts for the memory they work on. Every argument named like a vector is a byte address in that
;; memory: regrets and strategy sums (`A x n`, action-major, as in `PostflopGame`'s blocks) and the working
;; vectors are float32. The decision kernels do IEEE float32 arithmetic per lane (each operation rounded to
;; float32, no fused multiply-add), in the order their comments give; test/kernels.test.ts compares their bits
;; with float32 JavaScript references (test/reference32.ts). The terminals (fold, showdown) read float32
;; reaches, sum them in float64 and round each value to float32 once, so they give the bits of the float64
;; JavaScript functions in src/engine.ts (blockedTotals, showdownValues) rounded to float32.
;;
;; Counts that are not a multiple of 4: a step loads four hands even when fewer are left (the memory is
;; padded, and the extra lanes are discarded) but stores only the hands that exist (`$put`).

(module
  (import "env" "memory" (memory 1 65536 shared))

  ;; Stores the four float32 lanes of $v at $p, or only those of the hands from $i that are below $n.
  (func $put (param $p i32) (param $v v128) (param $i i32) (param $n i32)
    (local $left i32)
    (local.set $left (i32.sub (local.get $n) (local.get $i)))
    (if (i32.ge_u (local.get $left) (i32.const 4))
      (then (v128.store (local.get $p) (local.get $v)))
      (else
        (v128.store32_lane 0 (local.get $p) (local.get $v))
        (if (i32.ge_u (local.get $left) (i32.const 2))
          (then (v128.store32_lane 1 (i32.add (local.get $p) (i32.const 4)) (local.get $v))))
        (if (i32.ge_u (local.get $left) (i32.const 3))
          (then (v128.store32_lane 2 (i32.add (local.get $p) (i32.const 8)) (local.get $v)))))))

  ;; All ones in the lanes of the hands from $i that are below $n.
  (func $live (param $i i32) (param $n i32) (result v128)
    (i32x4.lt_s (v128.const i32x4 0 1 2 3) (i32x4.splat (i32.sub (local.get $n) (local.get $i)))))

  ;; Stores the two float64 lanes of $v at $p, or only the first when hand $i is the last of $n.
  (func $put64 (param $p i32) (param $v v128) (param $i i32) (param $n i32)
    (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))
      (then (v128.store (local.get $p) (local.get $v)))
      (else (v128.store64_lane 0 (local.get $p) (local.get $v)))))

  ;; Two float32 at $p as float64 lanes.
  (func $get32 (param $p i32) (result v128)
    (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $p))))

  ;; Row passes. The kernels below walk a decision's storage action by action (each row of n floats in
  ;; turn, so one contiguous stream through memory), four hands at a time inside.

  ;; dst[h] = (the first row: 0, else dst[h]) + max(row[h], 0): sums of positive regrets, row by row.
  (func $sumPositive (param $row i32) (param $n i32) (param $dst i32) (param $first i32)
    (local $i i32) (local $x v128) (local $sum v128)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (v128.load (local.get $row)))
        ;; +0 + (x > 0 ? x : +0) is that value itself: the first row needs no add.
        (local.set $sum (v128.and (local.get $x) (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0))))
        (if (i32.eqz (local.get $first))
          (then (local.set $sum (f32x4.add (v128.load (local.get $dst)) (local.get $sum)))))
        (call $put (local.get $dst) (local.get $sum) (local.get $i) (local.get $n))
        (local.set $row (i32.add (local.get $row) (i32.const 16)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; dst[h] = (the first row: row[h], else dst[h] + row[h]): sums of strategy sums, row by row.
  (func $sumRows (param $row i32) (param $n i32) (param $dst i32) (param $first i32)
    (local $i i32) (local $sum v128)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $sum (v128.load (local.get $row)))
        (if (i32.eqz (local.get $first))
          (then (local.set $sum (f32x4.add (v128.load (local.get $dst)) (local.get $sum)))))
        (call $put (local.get $dst) (local.get $sum) (local.get $i) (local.get $n))
        (local.set $row (i32.add (local.get $row) (i32.const 16)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; Regret matching: strat[a][h] = max(R[a][h], 0) / (sum of h's positive regrets), 1/A where that sum is 0.
  ;; The sums go to the last action's row first; each row then divides, the last one in place.
  (func (export "regretMatch") (param $R i32) (param $A i32) (param $n i32) (param $strat i32)
    (local $i i32) (local $a i32) (local $r i32) (local $s i32) (local $t i32) (local $last i32)
    (local $stride i32) (local $x v128) (local $sum v128) (local $uniform v128)
    (local.set $uniform (f32x4.splat (f32.div (f32.const 1) (f32.convert_i32_u (local.get $A)))))
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (local.set $last
      (i32.add (local.get $strat) (i32.mul (i32.sub (local.get $A) (i32.const 1)) (local.get $stride))))
    (local.set $r (local.get $R))
    (loop $sums
      (call $sumPositive (local.get $r) (local.get $n) (local.get $last) (i32.eqz (local.get $a)))
      (local.set $r (i32.add (local.get $r) (local.get $stride)))
      (br_if $sums (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (local.set $a (i32.const 0))
    (local.set $r (local.get $R))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $t (i32.shl (local.get $i) (i32.const 2)))
          (local.set $sum (v128.load (i32.add (local.get $last) (local.get $t))))
          (local.set $x (v128.load (i32.add (local.get $r) (local.get $t))))
          (call $put (i32.add (local.get $s) (local.get $t))
            (v128.bitselect
              (v128.and (f32x4.div (local.get $x) (local.get $sum))
                (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0)))
              (local.get $uniform)
              (f32x4.gt (local.get $sum) (v128.const i32x4 0 0 0 0)))
            (local.get $i) (local.get $n))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $r (i32.add (local.get $r) (local.get $stride)))
      (local.set $s (i32.add (local.get $s) (local.get $stride)))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; The average strategy: strat[a][h] = C[a][h] / (sum of h's strategy sums), 1/A where that sum is 0 (the
  ;; sums in the last row first, as above).
  (func (export "averageStrategy") (param $C i32) (param $A i32) (param $n i32) (param $strat i32)
    (local $i i32) (local $a i32) (local $c i32) (local $s i32) (local $t i32) (local $last i32)
    (local $stride i32) (local $sum v128) (local $uniform v128)
    (local.set $uniform (f32x4.splat (f32.div (f32.const 1) (f32.convert_i32_u (local.get $A)))))
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (local.set $last
      (i32.add (local.get $strat) (i32.mul (i32.sub (local.get $A) (i32.const 1)) (local.get $stride))))
    (local.set $c (local.get $C))
    (loop $sums
      (call $sumRows (local.get $c) (local.get $n) (local.get $last) (i32.eqz (local.get $a)))
      (local.set $c (i32.add (local.get $c) (local.get $stride)))
      (br_if $sums (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (local.set $a (i32.const 0))
    (local.set $c (local.get $C))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $t (i32.shl (local.get $i) (i32.const 2)))
          (local.set $sum (v128.load (i32.add (local.get $last) (local.get $t))))
          (call $put (i32.add (local.get $s) (local.get $t))
            (v128.bitselect
              (f32x4.div (v128.load (i32.add (local.get $c) (local.get $t))) (local.get $sum))
              (local.get $uniform)
              (f32x4.gt (local.get $sum) (v128.const i32x4 0 0 0 0)))
            (local.get $i) (local.get $n))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $c (i32.add (local.get $c) (local.get $stride)))
      (local.set $s (i32.add (local.get $s) (local.get $stride)))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; dst[h] = x[h] * y[h].
  (func (export "mul") (param $dst i32) (param $x i32) (param $y i32) (param $n i32)
    (local $i i32)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $put (local.get $dst)
          (f32x4.mul (v128.load (local.get $x)) (v128.load (local.get $y)))
          (local.get $i) (local.get $n))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $y (i32.add (local.get $y) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; dst[h] += x[h].
  (func (export "add") (param $dst i32) (param $x i32) (param $n i32)
    (local $i i32)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $put (local.get $dst)
          (f32x4.add (v128.load (local.get $dst)) (v128.load (local.get $x)))
          (local.get $i) (local.get $n))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; dst[h] = x[h] for $n float32 entries (one bulk copy; the ranges may overlap). A typed array's copyWithin
  ;; on the chunk's shared memory costs several times as much.
  (func (export "copy") (param $dst i32) (param $x i32) (param $n i32)
    (memory.copy (local.get $dst) (local.get $x) (i32.shl (local.get $n) (i32.const 2))))

  ;; $n float32 entries (4 bytes each) from $dst set to 0.
  (func (export "zero") (param $dst i32) (param $n i32)
    (memory.fill (local.get $dst) (i32.const 0) (i32.shl (local.get $n) (i32.const 2))))

  ;; dst[h] = c * x[h].
  (func (export "scale") (param $dst i32) (param $x i32) (param $c f32) (param $n i32)
    (local $i i32) (local $cv v128)
    (local.set $cv (f32x4.splat (local.get $c)))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $put (local.get $dst) (f32x4.mul (local.get $cv) (v128.load (local.get $x))) (local.get $i)
          (local.get $n))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; A chance node's float64 sum: acc[h] += x[h] ($acc: float64 by hand, $x: float32).
  (func (export "addTo64") (param $acc i32) (param $x i32) (param $n i32)
    (local $i i32)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $put64 (local.get $acc)
          (f64x2.add (v128.load (local.get $acc)) (call $get32 (local.get $x)))
          (local.get $i) (local.get $n))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $x (i32.add (local.get $x) (i32.const 8)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $hands))))

  ;; dst[h] = c * acc[h] in float64, rounded to float32 ($acc: float64 by hand).
  (func (export "storeScaled64") (param $dst i32) (param $acc i32) (param $c f64) (param $n i32)
    (local $i i32) (local $w v128) (local $cv v128)
    (local.set $cv (f64x2.splat (local.get $c)))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $w (f32x4.demote_f64x2_zero (f64x2.mul (local.get $cv) (v128.load (local.get $acc)))))
        (if (i32.lt_u (i32.add (local.get $i) (i32.const 1)) (local.get $n))
          (then (v128.store64_lane 0 (local.get $dst) (local.get $w)))
          (else (v128.store32_lane 0 (local.get $dst) (local.get $w))))
        (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
        (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 2)))
        (br $hands))))

  ;; The value of a decision under a strategy: out[h] = sum over a of strat[a][h] * vals[a][h], in action order
  ;; (the first product, then each next one added).
  (func $value (param $strat i32) (param $vals i32) (param $A i32) (param $stride i32) (result v128)
    (local $a i32) (local $sum v128)
    (local.set $sum (f32x4.mul (v128.load (local.get $strat)) (v128.load (local.get $vals))))
    (local.set $a (i32.const 1))
    (block $done
      (loop $actions
        (br_if $done (i32.ge_u (local.get $a) (local.get $A)))
        (local.set $strat (i32.add (local.get $strat) (local.get $stride)))
        (local.set $vals (i32.add (local.get $vals) (local.get $stride)))
        (local.set $sum
          (f32x4.add (local.get $sum) (f32x4.mul (v128.load (local.get $strat)) (v128.load (local.get $vals)))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (br $actions)))
    (local.get $sum))

  ;; out[h] = sum over a of strat[a][h] * vals[a][h] (see $value).
  (func $weightedSum (export "weightedSum") (param $out i32) (param $strat i32) (param $vals i32) (param $A i32) (param $n i32)
    (local $i i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (call $put (local.get $out)
          (call $value (local.get $strat) (local.get $vals) (local.get $A) (local.get $stride))
          (local.get $i) (local.get $n))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $strat (i32.add (local.get $strat) (i32.const 16)))
        (local.set $vals (i32.add (local.get $vals) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; out[h] = max over a of vals[a][h] (the first action's value unless a later one is strictly greater).
  (func (export "bestValue") (param $out i32) (param $vals i32) (param $A i32) (param $n i32)
    (local $i i32) (local $a i32) (local $v i32) (local $stride i32) (local $best v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $best (v128.load (local.get $vals)))
        (local.set $a (i32.const 1))
        (local.set $v (local.get $vals))
        (block $last
          (loop $actions
            (br_if $last (i32.ge_u (local.get $a) (local.get $A)))
            (local.set $v (i32.add (local.get $v) (local.get $stride)))
            ;; pmax(best, x) = best < x ? x : best
            (local.set $best (f32x4.pmax (local.get $best) (v128.load (local.get $v))))
            (local.set $a (i32.add (local.get $a) (i32.const 1)))
            (br $actions)))
        (call $put (local.get $out) (local.get $best) (local.get $i) (local.get $n))
        (local.set $out (i32.add (local.get $out) (i32.const 16)))
        (local.set $vals (i32.add (local.get $vals) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; A CFR update at a traverser's decision: the decision's value out[h] (as in weightedSum), then action by
  ;; action R = ((R * (R > 0 ? pos : neg)) + vals) - out and C = (C * gam) + (own * strat).
  (func (export "cfrUpdate")
    (param $R i32) (param $C i32) (param $A i32) (param $n i32) (param $strat i32) (param $vals i32)
    (param $out i32) (param $own i32) (param $pos f32) (param $neg f32) (param $gam f32)
    (local $i i32) (local $a i32) (local $stride i32) (local $t i32) (local $r i32)
    (local $c i32) (local $x v128) (local $posV v128) (local $negV v128) (local $gamV v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (call $weightedSum (local.get $out) (local.get $strat) (local.get $vals) (local.get $A) (local.get $n))
    (local.set $posV (f32x4.splat (local.get $pos)))
    (local.set $negV (f32x4.splat (local.get $neg)))
    (local.set $gamV (f32x4.splat (local.get $gam)))
    (loop $actions
      (local.set $i (i32.const 0))
      (local.set $r (local.get $R))
      (local.set $c (local.get $C))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          ;; $t: the hands' byte offset in the working vectors.
          (local.set $t (i32.shl (local.get $i) (i32.const 2)))
          (local.set $x (v128.load (local.get $r)))
          (call $put (local.get $r)
            (f32x4.sub
              (f32x4.add
                (f32x4.mul (local.get $x)
                  (v128.bitselect (local.get $posV) (local.get $negV)
                    (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0))))
                (v128.load (i32.add (local.get $vals) (local.get $t))))
              (v128.load (i32.add (local.get $out) (local.get $t))))
            (local.get $i) (local.get $n))
          (call $put (local.get $c)
            (f32x4.add
              (f32x4.mul (v128.load (local.get $c)) (local.get $gamV))
              (f32x4.mul (v128.load (i32.add (local.get $own) (local.get $t)))
                (v128.load (i32.add (local.get $strat) (local.get $t)))))
            (local.get $i) (local.get $n))
          (local.set $r (i32.add (local.get $r) (i32.const 16)))
          (local.set $c (i32.add (local.get $c) (i32.const 16)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $R (i32.add (local.get $R) (local.get $stride)))
      (local.set $C (i32.add (local.get $C) (local.get $stride)))
      (local.set $strat (i32.add (local.get $strat) (local.get $stride)))
      (local.set $vals (i32.add (local.get $vals) (local.get $stride)))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; inv[h] = 1 / (sum of h's positive regrets), 0 where there are none.
  (func (export "regretInverse") (param $R i32) (param $A i32) (param $n i32) (param $inv i32)
    (local $a i32)
    (loop $actions
      (call $sumPositive (local.get $R) (local.get $n) (local.get $inv) (i32.eqz (local.get $a)))
      (local.set $R (i32.add (local.get $R) (i32.shl (local.get $n) (i32.const 2))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (call $invert (local.get $inv) (local.get $n)))

  ;; inv[h] = 1 / (sum of h's strategy sums, the first action's first), 0 where that is 0.
  (func (export "sumInverse") (param $C i32) (param $A i32) (param $n i32) (param $inv i32)
    (local $a i32)
    (loop $actions
      (call $sumRows (local.get $C) (local.get $n) (local.get $inv) (i32.eqz (local.get $a)))
      (local.set $C (i32.add (local.get $C) (i32.shl (local.get $n) (i32.const 2))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (call $invert (local.get $inv) (local.get $n)))

  ;; x[h] = x[h] > 0 ? 1 / x[h] : 0.
  (func $invert (param $x i32) (param $n i32)
    (local $i i32) (local $s v128)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $s (v128.load (local.get $x)))
        (call $put (local.get $x)
          (v128.and (f32x4.div (v128.const f32x4 1 1 1 1) (local.get $s))
            (f32x4.gt (local.get $s) (v128.const i32x4 0 0 0 0)))
          (local.get $i) (local.get $n))
        (local.set $x (i32.add (local.get $x) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; dst[h] = reach[h] * (one action's strategy): S[h] * inv[h] where inv[h] > 0 (0 for a negative regret
  ;; when $positive), else $uniform. Returns 1 when some dst[h] > 0, else 0.
  (func (export "childReach")
    (param $S i32) (param $positive i32) (param $uniform f32) (param $n i32) (param $inv i32) (param $reach i32)
    (param $dst i32) (result i32)
    (local $i i32) (local $x v128) (local $iv v128) (local $s v128) (local $v v128) (local $any v128)
    (local $uniformV v128) (local $keepNegative v128) (local $above v128)
    (local.set $uniformV (f32x4.splat (local.get $uniform)))
    ;; All ones when negative entries keep their product (strategy sums), all zeros when they become 0.
    (local.set $keepNegative (i32x4.splat (i32.sub (i32.const 0) (i32.eqz (local.get $positive)))))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (v128.load (local.get $S)))
        (local.set $iv (v128.load (local.get $inv)))
        (local.set $s
          (v128.bitselect
            (v128.and (f32x4.mul (local.get $x) (local.get $iv))
              (v128.or (local.get $keepNegative)
                (v128.not (f32x4.lt (local.get $x) (v128.const i32x4 0 0 0 0)))))
            (local.get $uniformV)
            (f32x4.gt (local.get $iv) (v128.const i32x4 0 0 0 0))))
        (local.set $v (f32x4.mul (v128.load (local.get $reach)) (local.get $s)))
        (call $put (local.get $dst) (local.get $v) (local.get $i) (local.get $n))
        (local.set $above (f32x4.gt (local.get $v) (v128.const i32x4 0 0 0 0)))
        (if (i32.lt_u (i32.add (local.get $i) (i32.const 3)) (local.get $n))
          (then (local.set $any (v128.or (local.get $any) (local.get $above))))
          (else
            (local.set $any
              (v128.or (local.get $any)
                (v128.and (local.get $above) (call $live (local.get $i) (local.get $n)))))))
        (local.set $S (i32.add (local.get $S) (i32.const 16)))
        (local.set $inv (i32.add (local.get $inv) (i32.const 16)))
        (local.set $reach (i32.add (local.get $reach) (i32.const 16)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands)))
    (v128.any_true (local.get $any)))

  ;; 16-bit storage (`GameOptions.compressed`). A decision's regrets are int16 and its strategy sums uint16,
  ;; each row of n entries (action-major, as above), and each array holds one float32 scale in the 4 bytes
  ;; just before the decision's first entry: a stored entry x stands for x * scale. Regret matching, the
  ;; average strategy and the child reaches divide entries by their own sums, so the scale cancels and they
  ;; read the integers; only `cfrUpdate16` decodes (to discount and add) and encodes them again, rounding to
  ;; the nearest integer (ties to even) with the largest magnitude of the decision at 32767 (regrets) or
  ;; 65535 (sums).

  ;; Four int16 (or uint16) at $p as float32 lanes.
  (func $getS16 (param $p i32) (result v128)
    (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (v128.load64_zero (local.get $p)))))
  (func $getU16 (param $p i32) (result v128)
    (f32x4.convert_i32x4_u (i32x4.extend_low_i16x8_u (v128.load64_zero (local.get $p)))))

  ;; Stores the four lanes of $w (int16 in its low four lanes) at $p, or only those of the hands from $i that
  ;; are below $n.
  (func $put16 (param $p i32) (param $w v128) (param $i i32) (param $n i32)
    (local $left i32)
    (local.set $left (i32.sub (local.get $n) (local.get $i)))
    (if (i32.ge_u (local.get $left) (i32.const 4))
      (then (v128.store64_lane 0 (local.get $p) (local.get $w)))
      (else
        (v128.store16_lane 0 (local.get $p) (local.get $w))
        (if (i32.ge_u (local.get $left) (i32.const 2))
          (then (v128.store16_lane 1 (i32.add (local.get $p) (i32.const 2)) (local.get $w))))
        (if (i32.ge_u (local.get $left) (i32.const 3))
          (then (v128.store16_lane 2 (i32.add (local.get $p) (i32.const 4)) (local.get $w)))))))

  ;; $sumPositive and $sumRows over int16 and uint16 rows.
  (func $sumPositive16 (param $row i32) (param $n i32) (param $dst i32) (param $first i32)
    (local $i i32) (local $x v128) (local $sum v128)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $x (call $getS16 (local.get $row)))
        (local.set $sum (v128.and (local.get $x) (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0))))
        (if (i32.eqz (local.get $first))
          (then (local.set $sum (f32x4.add (v128.load (local.get $dst)) (local.get $sum)))))
        (call $put (local.get $dst) (local.get $sum) (local.get $i) (local.get $n))
        (local.set $row (i32.add (local.get $row) (i32.const 8)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))
  (func $sumRows16 (param $row i32) (param $n i32) (param $dst i32) (param $first i32)
    (local $i i32) (local $sum v128)
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $sum (call $getU16 (local.get $row)))
        (if (i32.eqz (local.get $first))
          (then (local.set $sum (f32x4.add (v128.load (local.get $dst)) (local.get $sum)))))
        (call $put (local.get $dst) (local.get $sum) (local.get $i) (local.get $n))
        (local.set $row (i32.add (local.get $row) (i32.const 8)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands))))

  ;; `regretMatch` over int16 regrets.
  (func (export "regretMatch16") (param $R i32) (param $A i32) (param $n i32) (param $strat i32)
    (local $i i32) (local $a i32) (local $r i32) (local $s i32) (local $last i32)
    (local $stride i32) (local $x v128) (local $sum v128) (local $uniform v128)
    (local.set $uniform (f32x4.splat (f32.div (f32.const 1) (f32.convert_i32_u (local.get $A)))))
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (local.set $last
      (i32.add (local.get $strat) (i32.mul (i32.sub (local.get $A) (i32.const 1)) (local.get $stride))))
    (local.set $r (local.get $R))
    (loop $sums
      (call $sumPositive16 (local.get $r) (local.get $n) (local.get $last) (i32.eqz (local.get $a)))
      (local.set $r (i32.add (local.get $r) (i32.shl (local.get $n) (i32.const 1))))
      (br_if $sums (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (local.set $a (i32.const 0))
    (local.set $r (local.get $R))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $sum (v128.load (i32.add (local.get $last) (i32.shl (local.get $i) (i32.const 2)))))
          (local.set $x (call $getS16 (i32.add (local.get $r) (i32.shl (local.get $i) (i32.const 1)))))
          (call $put (i32.add (local.get $s) (i32.shl (local.get $i) (i32.const 2)))
            (v128.bitselect
              (v128.and (f32x4.div (local.get $x) (local.get $sum))
                (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0)))
              (local.get $uniform)
              (f32x4.gt (local.get $sum) (v128.const i32x4 0 0 0 0)))
            (local.get $i) (local.get $n))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $r (i32.add (local.get $r) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $s (i32.add (local.get $s) (local.get $stride)))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; `averageStrategy` over uint16 strategy sums.
  (func (export "averageStrategy16") (param $C i32) (param $A i32) (param $n i32) (param $strat i32)
    (local $i i32) (local $a i32) (local $c i32) (local $s i32) (local $last i32)
    (local $stride i32) (local $sum v128) (local $uniform v128)
    (local.set $uniform (f32x4.splat (f32.div (f32.const 1) (f32.convert_i32_u (local.get $A)))))
    (local.set $stride (i32.shl (local.get $n) (i32.const 2)))
    (local.set $last
      (i32.add (local.get $strat) (i32.mul (i32.sub (local.get $A) (i32.const 1)) (local.get $stride))))
    (local.set $c (local.get $C))
    (loop $sums
      (call $sumRows16 (local.get $c) (local.get $n) (local.get $last) (i32.eqz (local.get $a)))
      (local.set $c (i32.add (local.get $c) (i32.shl (local.get $n) (i32.const 1))))
      (br_if $sums (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (local.set $a (i32.const 0))
    (local.set $c (local.get $C))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $sum (v128.load (i32.add (local.get $last) (i32.shl (local.get $i) (i32.const 2)))))
          (call $put (i32.add (local.get $s) (i32.shl (local.get $i) (i32.const 2)))
            (v128.bitselect
              (f32x4.div (call $getU16 (i32.add (local.get $c) (i32.shl (local.get $i) (i32.const 1))))
                (local.get $sum))
              (local.get $uniform)
              (f32x4.gt (local.get $sum) (v128.const i32x4 0 0 0 0)))
            (local.get $i) (local.get $n))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $c (i32.add (local.get $c) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $s (i32.add (local.get $s) (local.get $stride)))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; The largest lane of $m (all lanes >= 0).
  (func $maxLane (param $m v128) (result f32)
    (f32.max
      (f32.max (f32x4.extract_lane 0 (local.get $m)) (f32x4.extract_lane 1 (local.get $m)))
      (f32.max (f32x4.extract_lane 2 (local.get $m)) (f32x4.extract_lane 3 (local.get $m)))))

  ;; `cfrUpdate` over 16-bit storage. First the decision's value out[h] (as in weightedSum); then action by
  ;; action the new float32 values, R' = ((r * (r > 0 ? pos * sR : neg * sR)) + vals) - out (r the stored
  ;; integer, sR the regrets' scale) into vals, and C' = (c * (gam * sC)) + (own * strat) into strat (both are
  ;; working vectors the caller no longer needs), keeping each one's largest magnitude M; then each entry is
  ;; stored as nearest(x * (32767 / M)) (regrets; 65535 / M for sums) and the scale as M / 32767 (M / 65535),
  ;; or 0 and a scale of 0 when M is 0.
  (func (export "cfrUpdate16")
    (param $R i32) (param $C i32) (param $A i32) (param $n i32) (param $strat i32) (param $vals i32)
    (param $out i32) (param $own i32) (param $pos f32) (param $neg f32) (param $gam f32)
    (local $i i32) (local $a i32) (local $t i32) (local $r i32) (local $c i32) (local $v i32) (local $s i32)
    (local $x v128) (local $y v128) (local $posV v128) (local $negV v128) (local $gamV v128)
    (local $maxR v128) (local $maxC v128) (local $live v128) (local $m f32) (local $encR v128)
    (local $encC v128) (local $rowR i32) (local $rowC i32)
    (call $weightedSum (local.get $out) (local.get $strat) (local.get $vals) (local.get $A) (local.get $n))
    (local.set $posV (f32x4.splat (f32.mul (local.get $pos) (f32.load (i32.sub (local.get $R) (i32.const 4))))))
    (local.set $negV (f32x4.splat (f32.mul (local.get $neg) (f32.load (i32.sub (local.get $R) (i32.const 4))))))
    (local.set $gamV (f32x4.splat (f32.mul (local.get $gam) (f32.load (i32.sub (local.get $C) (i32.const 4))))))
    (local.set $rowR (local.get $R))
    (local.set $rowC (local.get $C))
    (local.set $v (local.get $vals))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (local.set $r (local.get $rowR))
      (local.set $c (local.get $rowC))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $t (i32.shl (local.get $i) (i32.const 2)))
          (local.set $x (call $getS16 (local.get $r)))
          (local.set $x
            (f32x4.sub
              (f32x4.add
                (f32x4.mul (local.get $x)
                  (v128.bitselect (local.get $posV) (local.get $negV)
                    (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0))))
                (v128.load (i32.add (local.get $v) (local.get $t))))
              (v128.load (i32.add (local.get $out) (local.get $t)))))
          (local.set $y
            (f32x4.add
              (f32x4.mul (call $getU16 (local.get $c)) (local.get $gamV))
              (f32x4.mul (v128.load (i32.add (local.get $own) (local.get $t)))
                (v128.load (i32.add (local.get $s) (local.get $t))))))
          (call $put (i32.add (local.get $v) (local.get $t)) (local.get $x) (local.get $i) (local.get $n))
          (call $put (i32.add (local.get $s) (local.get $t)) (local.get $y) (local.get $i) (local.get $n))
          ;; The largest magnitudes, over the hands that exist.
          (local.set $live (v128.const i32x4 -1 -1 -1 -1))
          (if (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $n))
            (then (local.set $live (call $live (local.get $i) (local.get $n)))))
          (local.set $maxR
            (f32x4.max (local.get $maxR) (v128.and (f32x4.abs (local.get $x)) (local.get $live))))
          (local.set $maxC
            (f32x4.max (local.get $maxC) (v128.and (f32x4.abs (local.get $y)) (local.get $live))))
          (local.set $r (i32.add (local.get $r) (i32.const 8)))
          (local.set $c (i32.add (local.get $c) (i32.const 8)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $rowR (i32.add (local.get $rowR) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $rowC (i32.add (local.get $rowC) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $v (i32.add (local.get $v) (i32.shl (local.get $n) (i32.const 2))))
      (local.set $s (i32.add (local.get $s) (i32.shl (local.get $n) (i32.const 2))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    ;; The scales.
    (local.set $m (call $maxLane (local.get $maxR)))
    (if (f32.gt (local.get $m) (f32.const 0))
      (then
        (local.set $encR (f32x4.splat (f32.div (f32.const 32767) (local.get $m))))
        (f32.store (i32.sub (local.get $R) (i32.const 4)) (f32.div (local.get $m) (f32.const 32767))))
      (else (f32.store (i32.sub (local.get $R) (i32.const 4)) (f32.const 0))))
    (local.set $m (call $maxLane (local.get $maxC)))
    (if (f32.gt (local.get $m) (f32.const 0))
      (then
        (local.set $encC (f32x4.splat (f32.div (f32.const 65535) (local.get $m))))
        (f32.store (i32.sub (local.get $C) (i32.const 4)) (f32.div (local.get $m) (f32.const 65535))))
      (else (f32.store (i32.sub (local.get $C) (i32.const 4)) (f32.const 0))))
    ;; The entries.
    (local.set $a (i32.const 0))
    (local.set $rowR (local.get $R))
    (local.set $rowC (local.get $C))
    (local.set $v (local.get $vals))
    (local.set $s (local.get $strat))
    (loop $actions
      (local.set $i (i32.const 0))
      (local.set $r (local.get $rowR))
      (local.set $c (local.get $rowC))
      (block $done
        (loop $hands
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (local.set $t (i32.shl (local.get $i) (i32.const 2)))
          (local.set $x
            (i32x4.trunc_sat_f32x4_s
              (f32x4.nearest (f32x4.mul (v128.load (i32.add (local.get $v) (local.get $t))) (local.get $encR)))))
          (call $put16 (local.get $r) (i16x8.narrow_i32x4_s (local.get $x) (local.get $x)) (local.get $i)
            (local.get $n))
          (local.set $y
            (i32x4.trunc_sat_f32x4_s
              (f32x4.nearest (f32x4.mul (v128.load (i32.add (local.get $s) (local.get $t))) (local.get $encC)))))
          (call $put16 (local.get $c) (i16x8.narrow_i32x4_u (local.get $y) (local.get $y)) (local.get $i)
            (local.get $n))
          (local.set $r (i32.add (local.get $r) (i32.const 8)))
          (local.set $c (i32.add (local.get $c) (i32.const 8)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $hands)))
      (local.set $rowR (i32.add (local.get $rowR) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $rowC (i32.add (local.get $rowC) (i32.shl (local.get $n) (i32.const 1))))
      (local.set $v (i32.add (local.get $v) (i32.shl (local.get $n) (i32.const 2))))
      (local.set $s (i32.add (local.get $s) (i32.shl (local.get $n) (i32.const 2))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A)))))

  ;; `regretInverse` and `sumInverse` over 16-bit storage.
  (func (export "regretInverse16") (param $R i32) (param $A i32) (param $n i32) (param $inv i32)
    (local $a i32)
    (loop $actions
      (call $sumPositive16 (local.get $R) (local.get $n) (local.get $inv) (i32.eqz (local.get $a)))
      (local.set $R (i32.add (local.get $R) (i32.shl (local.get $n) (i32.const 1))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (call $invert (local.get $inv) (local.get $n)))
  (func (export "sumInverse16") (param $C i32) (param $A i32) (param $n i32) (param $inv i32)
    (local $a i32)
    (loop $actions
      (call $sumRows16 (local.get $C) (local.get $n) (local.get $inv) (i32.eqz (local.get $a)))
      (local.set $C (i32.add (local.get $C) (i32.shl (local.get $n) (i32.const 1))))
      (br_if $actions (i32.lt_u (local.tee $a (i32.add (local.get $a) (i32.const 1))) (local.get $A))))
    (call $invert (local.get $inv) (local.get $n)))

  ;; `childReach` over 16-bit storage: int16 regrets when $positive, uint16 strategy sums otherwise.
  (func (export "childReach16")
    (param $S i32) (param $positive i32) (param $uniform f32) (param $n i32) (param $inv i32) (param $reach i32)
    (param $dst i32) (result i32)
    (local $i i32) (local $x v128) (local $iv v128) (local $s v128) (local $v v128) (local $any v128)
    (local $uniformV v128) (local $above v128)
    (local.set $uniformV (f32x4.splat (local.get $uniform)))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (local.get $positive)
          (then
            (local.set $x (call $getS16 (local.get $S)))
            ;; A negative regret's product becomes 0.
            (local.set $x (v128.and (local.get $x) (f32x4.gt (local.get $x) (v128.const i32x4 0 0 0 0)))))
          (else (local.set $x (call $getU16 (local.get $S)))))
        (local.set $iv (v128.load (local.get $inv)))
        (local.set $s
          (v128.bitselect
            (f32x4.mul (local.get $x) (local.get $iv))
            (local.get $uniformV)
            (f32x4.gt (local.get $iv) (v128.const i32x4 0 0 0 0))))
        (local.set $v (f32x4.mul (v128.load (local.get $reach)) (local.get $s)))
        (call $put (local.get $dst) (local.get $v) (local.get $i) (local.get $n))
        (local.set $above (f32x4.gt (local.get $v) (v128.const i32x4 0 0 0 0)))
        (if (i32.lt_u (i32.add (local.get $i) (i32.const 3)) (local.get $n))
          (then (local.set $any (v128.or (local.get $any) (local.get $above))))
          (else
            (local.set $any
              (v128.or (local.get $any)
                (v128.and (local.get $above) (call $live (local.get $i) (local.get $n)))))))
        (local.set $S (i32.add (local.get $S) (i32.const 8)))
        (local.set $inv (i32.add (local.get $inv) (i32.const 16)))
        (local.set $reach (i32.add (local.get $reach) (i32.const 16)))
        (local.set $dst (i32.add (local.get $dst) (i32.const 16)))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $hands)))
    (v128.any_true (local.get $any)))

  ;; Adds $r to the float64 at $sums + 8 * (each of the two cards packed in $c: `card1 | card2 << 6`).
  (func $addCards (param $sums i32) (param $c i32) (param $r f64)
    (local $p i32)
    (local.set $p (i32.add (local.get $sums) (i32.shl (i32.and (local.get $c) (i32.const 63)) (i32.const 3))))
    (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $r)))
    (local.set $p (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $c) (i32.const 6)) (i32.const 3))))
    (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $r))))

  ;; Entry $i of the float32 vector at $v, as float64.
  (func $at (param $v i32) (param $i i32) (result f64)
    (f64.promote_f32 (f32.load (i32.add (local.get $v) (i32.shl (local.get $i) (i32.const 2))))))

  ;; A fold terminal (blockedTotals in src/engine.ts, in float64, each value rounded to float32 once):
  ;; out[h] = pay * (the opponent's reach over the hands sharing no card with h). $oCards, $tCards: int32
  ;; packed cards per hand; $same: int32 index of the same combo among the opponent's hands or -1; $sums: 52
  ;; float64 of scratch.
  (func (export "fold")
    (param $opp i32) (param $no i32) (param $oCards i32) (param $out i32) (param $nt i32) (param $tCards i32)
    (param $same i32) (param $pay f64) (param $sums i32)
    (local $i i32) (local $r f64) (local $total f64) (local $c i32) (local $s i32) (local $blocked f64)
    (memory.fill (local.get $sums) (i32.const 0) (i32.const 416))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $no)))
        (local.set $r (call $at (local.get $opp) (local.get $i)))
        ;; Zero reach added rather than skipped: the same bits (see $sweep), no branch.
        (local.set $total (f64.add (local.get $total) (local.get $r)))
        (call $addCards (local.get $sums)
          (i32.load (i32.add (local.get $oCards) (i32.shl (local.get $i) (i32.const 2))))
          (local.get $r))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $hands)))
    (local.set $i (i32.const 0))
    (block $done
      (loop $hands
        (br_if $done (i32.ge_u (local.get $i) (local.get $nt)))
        (local.set $c (i32.load (i32.add (local.get $tCards) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $s (i32.load (i32.add (local.get $same) (i32.shl (local.get $i) (i32.const 2)))))
        ;; (sums[card1] + sums[card2]) - (the same combo's reach, counted in both)
        (local.set $blocked
          (f64.add
            (f64.load (i32.add (local.get $sums) (i32.shl (i32.and (local.get $c) (i32.const 63)) (i32.const 3))))
            (f64.load (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $c) (i32.const 6)) (i32.const 3))))))
        (if (i32.ge_s (local.get $s) (i32.const 0))
          (then
            (local.set $blocked (f64.sub (local.get $blocked) (call $at (local.get $opp) (local.get $s))))))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
          (f32.demote_f64 (f64.mul (local.get $pay) (f64.sub (local.get $total) (local.get $blocked)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $hands))))

  ;; The showdown sweep's step: from the opponent's entry at $k (of the entries ending at $oEnd, see
  ;; "showdown") up to the first whose key is at or above $limit, adds each hand's reach (from $opp) to $acc
  ;; and to the per-card sums at $sums. Returns where it stopped and the new $acc.
  (func $sweep
    (param $k i32) (param $oEnd i32) (param $limit i32) (param $acc f64) (param $opp i32) (param $sums i32)
    (result i32 f64)
    (local $info i32) (local $p i32) (local $r f64)
    (block $stop
      (loop $hands
        (br_if $stop (i32.ge_u (local.get $k) (local.get $oEnd)))
        (br_if $stop (i32.ge_s (i32.load offset=4 (local.get $k)) (local.get $limit)))
        (local.set $info (i32.load (local.get $k)))
        (local.set $r (call $at (local.get $opp) (i32.and (local.get $info) (i32.const 2047))))
        ;; A zero reach is skipped: the sums start at +0 and never become -0, and x + 0 = x for every other
        ;; x, so skipping leaves the same bits as adding it. Deep in the tree many of the opponent's hands have
        ;; folded to 0, and skipping them spares the per-card stores (2.5% of the flop benchmark's CPU per
        ;; iteration against adding every hand, BENCHMARKS.md).
        (if (f64.ne (local.get $r) (f64.const 0))
          (then
        (local.set $acc (f64.add (local.get $acc) (local.get $r)))
        (local.set $p
          (i32.add (local.get $sums)
            (i32.and (i32.shr_u (local.get $info) (i32.const 8)) (i32.const 504))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $r)))
        (local.set $p
          (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $info) (i32.const 17)) (i32.const 3))))
        (f64.store (local.get $p) (f64.add (f64.load (local.get $p)) (local.get $r)))))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $hands)))
    (local.get $k)
    (local.get $acc))

  ;; $x less the per-card sums (at $sums) of the two cards in $info (see "showdown"), card1's first.
  (func $lessCards (param $x f64) (param $sums i32) (param $info i32) (result f64)
    (f64.sub
      (f64.sub (local.get $x)
        (f64.load
          (i32.add (local.get $sums) (i32.and (i32.shr_u (local.get $info) (i32.const 8)) (i32.const 504)))))
      (f64.load (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $info) (i32.const 17)) (i32.const 3))))))

  ;; A showdown on one final board (showdownValues in src/engine.ts, one pass less, each value rounded to
  ;; float32 once). Each player's hands on the board come sorted by strength, one 8-byte entry each: an int32
  ;; `hand | card1 << 11 | card2 << 17`, then the int32 key `strength << 11 | (same + 1)` (same: the index of
  ;; the same combo among the other player's hands, or -1); $lo of the opponent's at $oKey, $lt of the
  ;; traverser's at $tKey.
  ;;
  ;; One ascending sweep over the opponent's hands gathers its reach strictly below each strength group of
  ;; the traverser's hands (wins: A * win to $tmp by sorted position) and up to it ("not above", beside it),
  ;; per card too so that the hands sharing a card come off; once it has swept every hand its sums are the
  ;; totals, and a last pass over the traverser's hands writes A win + (A (not above - tot) + B tot), with tot
  ;; the reach sharing no card (lose = tot - not above). The sums accumulate in float64 in the same (sorted)
  ;; order as showdownValues'. Hands not on the board get 0. $tot: each hand's tot (float32 by hand, 0 off
  ;; the board), from which a fold on the same reach takes its values (see Engine.river). $tmp: 16 bytes per
  ;; traverser hand on the board; $sums: 52 float64 of scratch (per-card sums of the hands swept so far).
  (func (export "showdown")
    (param $oKey i32) (param $lo i32) (param $tKey i32) (param $lt i32) (param $opp i32) (param $out i32)
    (param $tmp i32) (param $tot i32) (param $nt i32) (param $A f64) (param $B f64) (param $sums i32)
    (local $k i32) (local $oEnd i32) (local $m i32) (local $e i32) (local $tEnd i32) (local $key i32)
    (local $info i32) (local $s i32) (local $below i32) (local $upTo i32) (local $p i32) (local $q i32)
    (local $acc f64) (local $rs f64) (local $t f64)
    (memory.fill (local.get $sums) (i32.const 0) (i32.const 416))
    (memory.fill (local.get $out) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (memory.fill (local.get $tot) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (local.set $oEnd (i32.add (local.get $oKey) (i32.shl (local.get $lo) (i32.const 3))))
    (local.set $tEnd (i32.add (local.get $tKey) (i32.shl (local.get $lt) (i32.const 3))))
    (local.set $k (local.get $oKey))
    (local.set $m (local.get $tKey))
    (block $swept_all
      (loop $groups
        (br_if $swept_all (i32.ge_u (local.get $m) (local.get $tEnd)))
        ;; The next group, from $e to $m: the traverser's hands of one strength.
        (local.set $below (i32.and (i32.load offset=4 (local.get $m)) (i32.const -2048)))
        (local.set $upTo (i32.add (local.get $below) (i32.const 2048)))
        (local.set $e (local.get $m))
        ;; The opponent's reach strictly below the group: the group's wins.
        (call $sweep (local.get $k) (local.get $oEnd) (local.get $below) (local.get $acc) (local.get $opp)
          (local.get $sums))
        (local.set $acc)
        (local.set $k)
        (block $stop
          (loop $group
            (br_if $stop (i32.ge_u (local.get $m) (local.get $tEnd)))
            (br_if $stop (i32.ge_s (i32.load offset=4 (local.get $m)) (local.get $upTo)))
            (f64.store (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $m) (local.get $tKey)) (i32.const 1)))
              (f64.mul (local.get $A) (call $lessCards (local.get $acc) (local.get $sums) (i32.load (local.get $m)))))
            (local.set $m (i32.add (local.get $m) (i32.const 8)))
            (br $group)))
        ;; Up to the group's strength: its "not above" reach, beside the wins.
        (call $sweep (local.get $k) (local.get $oEnd) (local.get $upTo) (local.get $acc) (local.get $opp)
          (local.get $sums))
        (local.set $acc)
        (local.set $k)
        (block $stop
          (loop $group
            (br_if $stop (i32.ge_u (local.get $e) (local.get $m)))
            (local.set $s (i32.and (i32.load offset=4 (local.get $e)) (i32.const 2047)))
            ;; The same combo has the same strength: it is in the "not above" sums (twice through the cards).
            (local.set $rs (f64.const 0))
            (if (local.get $s)
              (then (local.set $rs (call $at (local.get $opp) (i32.sub (local.get $s) (i32.const 1))))))
            (f64.store offset=8
              (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $e) (local.get $tKey)) (i32.const 1)))
              (f64.add (call $lessCards (local.get $acc) (local.get $sums) (i32.load (local.get $e)))
                (local.get $rs)))
            (local.set $e (i32.add (local.get $e) (i32.const 8)))
            (br $group)))
        (br $groups)))
    ;; The rest of the opponent's hands: $acc and $sums then hold its whole reach.
    (call $sweep (local.get $k) (local.get $oEnd) (i32.const 0x7fffffff) (local.get $acc) (local.get $opp)
      (local.get $sums))
    (local.set $acc)
    (local.set $k)
    (local.set $m (local.get $tKey))
    (block $stop
      (loop $hands
        (br_if $stop (i32.ge_u (local.get $m) (local.get $tEnd)))
        (local.set $info (i32.load (local.get $m)))
        (local.set $s (i32.and (i32.load offset=4 (local.get $m)) (i32.const 2047)))
        (local.set $rs (f64.const 0))
        (if (local.get $s)
          (then (local.set $rs (call $at (local.get $opp) (i32.sub (local.get $s) (i32.const 1))))))
        (local.set $t (f64.add (call $lessCards (local.get $acc) (local.get $sums) (local.get $info)) (local.get $rs)))
        ;; value = A win + (A (not above - tot) + B tot), lose = tot - not above.
        (local.set $p (i32.shl (i32.and (local.get $info) (i32.const 2047)) (i32.const 2)))
        (local.set $q (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $m) (local.get $tKey)) (i32.const 1))))
        (f32.store (i32.add (local.get $tot) (local.get $p)) (f32.demote_f64 (local.get $t)))
        (f32.store (i32.add (local.get $out) (local.get $p))
          (f32.demote_f64
            (f64.add (f64.load (local.get $q))
              (f64.add
                (f64.mul (local.get $A) (f64.sub (f64.load offset=8 (local.get $q)) (local.get $t)))
                (f64.mul (local.get $B) (local.get $t))))))
        (local.set $m (i32.add (local.get $m) (i32.const 8)))
        (br $hands))))

  ;; Two showdowns on one board at once ("showdown" for each, its two opponent reach vectors side by side in the
  ;; two f64x2 lanes): the same IEEE operations in the same order per lane, so each lane's values are the bits
  ;; "showdown" gives for it. $oppA, $oppB: the reaches; $outA, $outB: the values; $totA, $totB: the totals
  ;; ("showdown"'s $tot); $A0, $A1, $B0, $B1: each lane's pays; $tmp: 32 bytes per traverser hand on the
  ;; board; $sums: 52 x 16 bytes of scratch.

  ;; Entry $h (a byte offset in float32 vectors) of $a and $b as the two float64 lanes.
  (func $pair (param $a i32) (param $b i32) (param $h i32) (result v128)
    (f64x2.promote_low_f32x4
      (v128.load32_lane 1 (i32.add (local.get $b) (local.get $h))
        (v128.load32_zero (i32.add (local.get $a) (local.get $h))))))

  ;; Stores the two float64 lanes of $v, rounded to float32, at $a + $h and $b + $h.
  (func $putPair (param $a i32) (param $b i32) (param $h i32) (param $v v128)
    (local $w v128)
    (local.set $w (f32x4.demote_f64x2_zero (local.get $v)))
    (v128.store32_lane 0 (i32.add (local.get $a) (local.get $h)) (local.get $w))
    (v128.store32_lane 1 (i32.add (local.get $b) (local.get $h)) (local.get $w)))

  ;; $sweep for two reach vectors: the sums are f64x2 (lane 0 from $oppA, lane 1 from $oppB).
  (func $sweep2
    (param $k i32) (param $oEnd i32) (param $limit i32) (param $acc v128) (param $oppA i32) (param $oppB i32)
    (param $sums i32) (result i32 v128)
    (local $info i32) (local $p i32) (local $r v128)
    (block $stop
      (loop $hands
        (br_if $stop (i32.ge_u (local.get $k) (local.get $oEnd)))
        (br_if $stop (i32.ge_s (i32.load offset=4 (local.get $k)) (local.get $limit)))
        (local.set $info (i32.load (local.get $k)))
        (local.set $r
          (call $pair (local.get $oppA) (local.get $oppB)
            (i32.shl (i32.and (local.get $info) (i32.const 2047)) (i32.const 2))))
        ;; Skipped when both reaches are 0 (see $sweep).
        (if (v128.any_true (local.get $r))
          (then
        (local.set $acc (f64x2.add (local.get $acc) (local.get $r)))
        (local.set $p
          (i32.add (local.get $sums)
            (i32.and (i32.shr_u (local.get $info) (i32.const 7)) (i32.const 1008))))
        (v128.store (local.get $p) (f64x2.add (v128.load (local.get $p)) (local.get $r)))
        (local.set $p
          (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $info) (i32.const 17)) (i32.const 4))))
        (v128.store (local.get $p) (f64x2.add (v128.load (local.get $p)) (local.get $r)))))
        (local.set $k (i32.add (local.get $k) (i32.const 8)))
        (br $hands)))
    (local.get $k)
    (local.get $acc))

  ;; $lessCards for f64x2 sums.
  (func $lessCards2 (param $x v128) (param $sums i32) (param $info i32) (result v128)
    (f64x2.sub
      (f64x2.sub (local.get $x)
        (v128.load
          (i32.add (local.get $sums) (i32.and (i32.shr_u (local.get $info) (i32.const 7)) (i32.const 1008)))))
      (v128.load (i32.add (local.get $sums) (i32.shl (i32.shr_u (local.get $info) (i32.const 17)) (i32.const 4))))))

  ;; The same combo's reach in both vectors (0 where $s, the same combo's index + 1, is 0).
  (func $same2 (param $s i32) (param $oppA i32) (param $oppB i32) (result v128)
    (if (result v128) (local.get $s)
      (then
        (call $pair (local.get $oppA) (local.get $oppB) (i32.shl (i32.sub (local.get $s) (i32.const 1)) (i32.const 2))))
      (else (v128.const i64x2 0 0))))

  (func (export "showdown2")
    (param $oKey i32) (param $lo i32) (param $tKey i32) (param $lt i32) (param $oppA i32) (param $oppB i32)
    (param $outA i32) (param $outB i32) (param $tmp i32) (param $totA i32) (param $totB i32) (param $nt i32)
    (param $A0 f64) (param $A1 f64)
    (param $B0 f64) (param $B1 f64) (param $sums i32)
    (local $k i32) (local $oEnd i32) (local $m i32) (local $e i32) (local $tEnd i32) (local $info i32)
    (local $below i32) (local $upTo i32) (local $h i32) (local $q i32)
    (local $acc v128) (local $tot v128) (local $A v128) (local $B v128)
    (local.set $A (f64x2.replace_lane 1 (f64x2.splat (local.get $A0)) (local.get $A1)))
    (local.set $B (f64x2.replace_lane 1 (f64x2.splat (local.get $B0)) (local.get $B1)))
    (memory.fill (local.get $sums) (i32.const 0) (i32.const 832))
    (memory.fill (local.get $outA) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (memory.fill (local.get $outB) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (memory.fill (local.get $totA) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (memory.fill (local.get $totB) (i32.const 0) (i32.shl (local.get $nt) (i32.const 2)))
    (local.set $oEnd (i32.add (local.get $oKey) (i32.shl (local.get $lo) (i32.const 3))))
    (local.set $tEnd (i32.add (local.get $tKey) (i32.shl (local.get $lt) (i32.const 3))))
    (local.set $k (local.get $oKey))
    (local.set $m (local.get $tKey))
    (block $swept_all
      (loop $groups
        (br_if $swept_all (i32.ge_u (local.get $m) (local.get $tEnd)))
        (local.set $below (i32.and (i32.load offset=4 (local.get $m)) (i32.const -2048)))
        (local.set $upTo (i32.add (local.get $below) (i32.const 2048)))
        (local.set $e (local.get $m))
        (call $sweep2 (local.get $k) (local.get $oEnd) (local.get $below) (local.get $acc) (local.get $oppA)
          (local.get $oppB) (local.get $sums))
        (local.set $acc)
        (local.set $k)
        (block $stop
          (loop $group
            (br_if $stop (i32.ge_u (local.get $m) (local.get $tEnd)))
            (br_if $stop (i32.ge_s (i32.load offset=4 (local.get $m)) (local.get $upTo)))
            (v128.store (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $m) (local.get $tKey)) (i32.const 2)))
              (f64x2.mul (local.get $A) (call $lessCards2 (local.get $acc) (local.get $sums) (i32.load (local.get $m)))))
            (local.set $m (i32.add (local.get $m) (i32.const 8)))
            (br $group)))
        (call $sweep2 (local.get $k) (local.get $oEnd) (local.get $upTo) (local.get $acc) (local.get $oppA)
          (local.get $oppB) (local.get $sums))
        (local.set $acc)
        (local.set $k)
        (block $stop
          (loop $group
            (br_if $stop (i32.ge_u (local.get $e) (local.get $m)))
            (v128.store offset=16
              (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $e) (local.get $tKey)) (i32.const 2)))
              (f64x2.add (call $lessCards2 (local.get $acc) (local.get $sums) (i32.load (local.get $e)))
                (call $same2 (i32.and (i32.load offset=4 (local.get $e)) (i32.const 2047)) (local.get $oppA)
                  (local.get $oppB))))
            (local.set $e (i32.add (local.get $e) (i32.const 8)))
            (br $group)))
        (br $groups)))
    (call $sweep2 (local.get $k) (local.get $oEnd) (i32.const 0x7fffffff) (local.get $acc) (local.get $oppA)
      (local.get $oppB) (local.get $sums))
    (local.set $acc)
    (local.set $k)
    (local.set $m (local.get $tKey))
    (block $stop
      (loop $hands
        (br_if $stop (i32.ge_u (local.get $m) (local.get $tEnd)))
        (local.set $info (i32.load (local.get $m)))
        (local.set $tot
          (f64x2.add (call $lessCards2 (local.get $acc) (local.get $sums) (local.get $info))
            (call $same2 (i32.and (i32.load offset=4 (local.get $m)) (i32.const 2047)) (local.get $oppA)
              (local.get $oppB))))
        (local.set $h (i32.shl (i32.and (local.get $info) (i32.const 2047)) (i32.const 2)))
        (local.set $q (i32.add (local.get $tmp) (i32.shl (i32.sub (local.get $m) (local.get $tKey)) (i32.const 2))))
        (call $putPair (local.get $totA) (local.get $totB) (local.get $h) (local.get $tot))
        (call $putPair (local.get $outA) (local.get $outB) (local.get $h)
          (f64x2.add (v128.load (local.get $q))
            (f64x2.add
              (f64x2.mul (local.get $A) (f64x2.sub (v128.load offset=16 (local.get $q)) (local.get $tot)))
              (f64x2.mul (local.get $B) (local.get $tot)))))
        (local.set $m (i32.add (local.get $m) (i32.const 8)))
        (br $hands))))
)
