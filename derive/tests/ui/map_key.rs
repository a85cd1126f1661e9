use kstruct::CustomResourceSchema;
use std::collections::BTreeMap;

#[derive(CustomResourceSchema, PartialEq, Eq, PartialOrd, Ord)]
struct Point {
    x: i32,
}

#[derive(CustomResourceSchema)]
struct Spec {
    by_point: BTreeMap<Point, String>,
}

fn main() {}
