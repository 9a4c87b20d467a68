// RUN: aot-opt %s --split-input-file --aot-expand-float8 | FileCheck %s

// What arith-emulate-unsupported-floats leaves of the 8-bit float types
// (arith.extf, arith.truncf, arith.constant) becomes integer and f32 (or f64)
// arithmetic on the values' bytes: extf places the byte's fields into an f32
// (exactly), truncf rounds to nearest even and overflows to inf (f8E5M2) or
// NaN (the FN and FNUZ types), a constant is its bytes bitcast.

// extf from f8E4M3FN: sign to bit 31, exponent rebiased by 127 - 7 = 120,
// 3 mantissa bits moved up by 20; subnormals are m * 2^-9; the one NaN code
// of the magnitude (127) becomes a quiet NaN.
// CHECK-LABEL: func.func @extf_e4m3fn
// CHECK-SAME:    (%[[X:.*]]: f8E4M3FN) -> f32
// CHECK-NEXT:    %[[B:.*]] = arith.bitcast %[[X]] : f8E4M3FN to i8
// CHECK-NEXT:    %[[U:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK:         %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[S0:.*]] = arith.andi %[[U]], %[[C128]] : i32
// CHECK-NEXT:    %[[SIGN:.*]] = arith.shli %[[S0]], %{{.*}} : i32
// CHECK-NEXT:    %[[C127:.*]] = arith.constant 127 : i32
// CHECK-NEXT:    %[[MAG:.*]] = arith.andi %[[U]], %[[C127]] : i32
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[E:.*]] = arith.shrui %[[MAG]], %[[C3]] : i32
// CHECK-NEXT:    %[[C7:.*]] = arith.constant 7 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.andi %[[MAG]], %[[C7]] : i32
// CHECK-NEXT:    %[[C20:.*]] = arith.constant 20 : i32
// CHECK-NEXT:    %[[MHI:.*]] = arith.shli %[[M]], %[[C20]] : i32
// CHECK-NEXT:    %[[C23:.*]] = arith.constant 23 : i32
// CHECK-NEXT:    %[[C120:.*]] = arith.constant 120 : i32
// CHECK-NEXT:    %[[E1:.*]] = arith.addi %[[E]], %[[C120]] : i32
// CHECK-NEXT:    %[[E2:.*]] = arith.shli %[[E1]], %[[C23]] : i32
// CHECK-NEXT:    %[[NORMAL:.*]] = arith.ori %[[E2]], %[[MHI]] : i32
// CHECK-NEXT:    %[[SCALE:.*]] = arith.constant 0.001953125 : f32
// CHECK-NEXT:    %[[MF:.*]] = arith.uitofp %[[M]] : i32 to f32
// CHECK-NEXT:    %[[SUB:.*]] = arith.mulf %[[MF]], %[[SCALE]] : f32
// CHECK-NEXT:    %[[SUBB:.*]] = arith.bitcast %[[SUB]] : f32 to i32
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[ISSUB:.*]] = arith.cmpi eq, %[[E]], %[[C0]] : i32
// CHECK-NEXT:    %[[BITS:.*]] = arith.select %[[ISSUB]], %[[SUBB]], %[[NORMAL]] : i32
// CHECK-NEXT:    %[[QNAN:.*]] = arith.constant 2143289344 : i32
// CHECK-NEXT:    %[[C127B:.*]] = arith.constant 127 : i32
// CHECK-NEXT:    %[[ISNAN:.*]] = arith.cmpi eq, %[[MAG]], %[[C127B]] : i32
// CHECK-NEXT:    %[[BITS2:.*]] = arith.select %[[ISNAN]], %[[QNAN]], %[[BITS]] : i32
// CHECK-NEXT:    %[[ALL:.*]] = arith.ori %[[BITS2]], %[[SIGN]] : i32
// CHECK-NEXT:    %[[R:.*]] = arith.bitcast %[[ALL]] : i32 to f32
// CHECK-NEXT:    return %[[R]] : f32
func.func @extf_e4m3fn(%x: f8E4M3FN) -> f32 {
  %e = arith.extf %x : f8E4M3FN to f32
  return %e : f32
}

// -----

// On vectors (as the vectorized code loads them) every constant is a splat.
// f8E5M2 has IEEE specials: exponent 31 is inf (0x7F800000) when the
// mantissa is 0, else NaN. An f16 result is the f32 truncated, exactly.
// CHECK-LABEL: func.func @extf_e5m2_vector_to_f16
// CHECK:         arith.bitcast %{{.*}} : vector<16xf8E5M2> to vector<16xi8>
// CHECK:         %[[E:.*]] = arith.shrui %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK:         arith.constant dense<112> : vector<16xi32>
// CHECK:         arith.constant dense<1.52587891E-5> : vector<16xf32>
// CHECK:         %[[INF:.*]] = arith.constant dense<2139095040> : vector<16xi32>
// CHECK:         %[[SPECIAL:.*]] = arith.select %{{.*}}, %[[INF]], %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK-NEXT:    %[[C31:.*]] = arith.constant dense<31> : vector<16xi32>
// CHECK-NEXT:    %[[TOP:.*]] = arith.cmpi eq, %[[E]], %[[C31]] : vector<16xi32>
// CHECK-NEXT:    arith.select %[[TOP]], %[[SPECIAL]], %{{.*}} : vector<16xi1>, vector<16xi32>
// CHECK:         %[[F:.*]] = arith.bitcast %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK-NEXT:    %[[H:.*]] = arith.truncf %[[F]] : vector<16xf32> to vector<16xf16>
// CHECK-NEXT:    return %[[H]]
func.func @extf_e5m2_vector_to_f16(%x: vector<16xf8E5M2>) -> vector<16xf16> {
  %e = arith.extf %x : vector<16xf8E5M2> to vector<16xf16>
  return %e : vector<16xf16>
}

// -----

// truncf to f8E4M3FN: q = roundeven(|x| * 2^(3 - e)) with e at least -6,
// code ((e + 6) << 3) + q; past 126 (448) it overflows to NaN (127), as a
// NaN does; then the sign, and the low byte.
// CHECK-LABEL: func.func @truncf_e4m3fn
// CHECK-SAME:    (%[[X:.*]]: f32) -> f8E4M3FN
// CHECK-NEXT:    %[[A:.*]] = arith.bitcast %[[X]] : f32 to i32
// CHECK:         %[[ISNAN:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : i32
// CHECK:         %[[EMIN:.*]] = arith.constant -6 : i32
// CHECK:         %[[E:.*]] = arith.maxsi %{{.*}}, %[[EMIN]] : i32
// CHECK:         arith.constant 130 : i32
// CHECK:         %[[RND:.*]] = math.roundeven %{{.*}} : f32
// CHECK-NEXT:    %[[Q:.*]] = arith.fptoui %[[RND]] : f32 to i32
// CHECK:         %[[CODE:.*]] = arith.addi %{{.*}}, %[[Q]] : i32
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant 126 : i32
// CHECK-NEXT:    %[[OVER:.*]] = arith.cmpi ugt, %[[CODE]], %[[MAX]] : i32
// CHECK-NEXT:    %[[NAN1:.*]] = arith.constant 127 : i32
// CHECK-NEXT:    %[[C1:.*]] = arith.select %[[OVER]], %[[NAN1]], %[[CODE]] : i32
// CHECK-NEXT:    %[[NAN2:.*]] = arith.constant 127 : i32
// CHECK-NEXT:    %[[C2:.*]] = arith.select %[[ISNAN]], %[[NAN2]], %[[C1]] : i32
// CHECK:         %[[BYTE:.*]] = arith.trunci %{{.*}} : i32 to i8
// CHECK-NEXT:    %[[R:.*]] = arith.bitcast %[[BYTE]] : i8 to f8E4M3FN
// CHECK-NEXT:    return %[[R]]
func.func @truncf_e4m3fn(%x: f32) -> f8E4M3FN {
  %t = arith.truncf %x : f32 to f8E4M3FN
  return %t : f8E4M3FN
}

// -----

// From f64 the arithmetic stays in i64 and f64 (nothing rounded twice);
// f8E5M2 overflows past 123 (57344) to inf (124), and NaN is 126.
// CHECK-LABEL: func.func @truncf_f64_e5m2
// CHECK-NEXT:    arith.bitcast %{{.*}} : vector<4xf64> to vector<4xi64>
// CHECK:         arith.constant dense<1023> : vector<4xi64>
// CHECK:         math.roundeven %{{.*}} : vector<4xf64>
// CHECK:         %[[OVER:.*]] = arith.cmpi ugt, %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK-NEXT:    %[[INF:.*]] = arith.constant dense<124> : vector<4xi64>
// CHECK-NEXT:    arith.select %[[OVER]], %[[INF]], %{{.*}} : vector<4xi1>, vector<4xi64>
// CHECK-NEXT:    arith.constant dense<126> : vector<4xi64>
// CHECK:         arith.trunci %{{.*}} : vector<4xi64> to vector<4xi8>
func.func @truncf_f64_e5m2(%x: vector<4xf64>) -> vector<4xf8E5M2> {
  %t = arith.truncf %x : vector<4xf64> to vector<4xf8E5M2>
  return %t : vector<4xf8E5M2>
}

// -----

// bf16 is widened to f32 first. FNUZ types have no -0: a zero magnitude has
// no sign, and NaN or overflow is the code 128.
// CHECK-LABEL: func.func @truncf_bf16_e5m2fnuz
// CHECK-NEXT:    %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:    arith.bitcast %[[W]] : f32 to i32
// CHECK:         %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[ISZERO:.*]] = arith.cmpi eq, %{{.*}}, %[[Z2]] : i32
// CHECK-NEXT:    %[[NOSIGN:.*]] = arith.select %[[ISZERO]], %[[Z]], %{{.*}} : i32
// CHECK-NEXT:    %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT:    %[[BAD:.*]] = arith.ori %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    arith.select %[[BAD]], %[[C128]], %[[NOSIGN]] : i32
func.func @truncf_bf16_e5m2fnuz(%x: bf16) -> f8E5M2FNUZ {
  %t = arith.truncf %x : bf16 to f8E5M2FNUZ
  return %t : f8E5M2FNUZ
}

// -----

// Constants are their bytes: -1.5 is 0xBC in f8E4M3FN; 1, -2, 0.25 and the
// largest finite 57344 are 0x3C, 0xC0, 0x34, 0x7B in f8E5M2.
// CHECK-LABEL: func.func @constants
// CHECK-NEXT:    %[[S:.*]] = arith.constant -68 : i8
// CHECK-NEXT:    %[[SF:.*]] = arith.bitcast %[[S]] : i8 to f8E4M3FN
// CHECK-NEXT:    %[[V:.*]] = arith.constant dense<{{\[\[}}60, -64], [52, 123]]> : vector<2x2xi8>
// CHECK-NEXT:    %[[VF:.*]] = arith.bitcast %[[V]] : vector<2x2xi8> to vector<2x2xf8E5M2>
// CHECK-NEXT:    return %[[SF]], %[[VF]]
func.func @constants() -> (f8E4M3FN, vector<2x2xf8E5M2>) {
  %a = arith.constant -1.5 : f8E4M3FN
  %b = arith.constant dense<[[1.0, -2.0], [0.25, 57344.0]]> : vector<2x2xf8E5M2>
  return %a, %b : f8E4M3FN, vector<2x2xf8E5M2>
}

// -----

// Conversions and constants of wider floats are left alone.
// CHECK-LABEL: func.func @wider_floats
// CHECK-SAME:    (%[[H:.*]]: f16, %[[F:.*]]: f32)
// CHECK-NEXT:    %[[A:.*]] = arith.extf %[[H]] : f16 to f32
// CHECK-NEXT:    %[[B:.*]] = arith.truncf %[[F]] : f32 to bf16
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1.500000e+00 : f16
// CHECK-NEXT:    return %[[A]], %[[B]], %[[C]]
func.func @wider_floats(%h: f16, %f: f32) -> (f32, bf16, f16) {
  %a = arith.extf %h : f16 to f32
  %b = arith.truncf %f : f32 to bf16
  %c = arith.constant 1.5 : f16
  return %a, %b, %c : f32, bf16, f16
}
