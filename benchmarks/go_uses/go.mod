module fourfold/benchmarks/go_uses

go 1.19
