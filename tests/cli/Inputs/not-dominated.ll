; LLVM IR that parses but is invalid (a use before its definition), with the
; "Debug Info Version" flag every module aot-compile writes carries.
define i32 @f(i32 %x) {
  %y = add i32 %z, 1
  %z = add i32 %x, 1
  ret i32 %y
}

!llvm.module.flags = !{!0}
!0 = !{i32 2, !"Debug Info Version", i32 3}
