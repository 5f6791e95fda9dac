// swift-tools-version:6.0
// A Swift program that uses Moa as a package dependency: `import MoaLayout` (views, equations, motion).
//
//   cd examples/swift && swift run        # or, from the repository root: make test-swift-example
//
// In your own package, depend on Moa by path or URL and on the product "MoaLayout" (or "MoaSolver").
import PackageDescription

let package = Package(
    name: "MoaExample",
    dependencies: [
        .package(name: "Moa", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "MoaExample",
            dependencies: [.product(name: "MoaLayout", package: "Moa")]
        ),
    ]
)
