use kstruct::CustomResourceSchema;
use std::collections::BTreeMap;

// Rules are costed as the API server costs them: sizes come from the fields' std types and
// their `max_items` / `max_length` / `max_properties`.
#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(rule = "self.tags.all(t, t.matches('^[a-z]+$'))"))]
#[kstruct(validation(rule = "self.labels.all(k, self.labels[k].matches('^a')) && self.name != ''"))]
struct Unbounded {
    name: String,
    tags: Vec<String>,
    labels: BTreeMap<String, String>,
    #[kstruct(validation(rule = "self.all(x, x.all(y, y.startsWith('a')))"))]
    matrix: Vec<Vec<String>>,
    #[kstruct(items(validation(rule = "self.matches('^[a-z]+$')")))]
    hosts: Vec<String>,
}

// Bounded, the same rules pass.
#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(rule = "self.tags.all(t, t.matches('^[a-z]+$'))"))]
#[kstruct(validation(rule = "self.labels.all(k, self.labels[k].matches('^a'))"))]
struct Bounded {
    #[kstruct(max_items = 16, items(max_length = 63))]
    tags: Vec<String>,
    #[kstruct(max_properties = 16)]
    labels: BTreeMap<String, String>,
    #[kstruct(max_items = 8, items(validation(rule = "self.matches('^[a-z]+$')"), max_length = 253))]
    hosts: Vec<String>,
}

// Rules on fields of std types are type-checked against the type.
#[derive(serde::Serialize, CustomResourceSchema)]
struct Typed {
    #[kstruct(validation(rule = "self > 0"))]
    name: String,
    #[kstruct(validation(rule = "self.startsWith('a')"))]
    replicas: i32,
    #[kstruct(validation(rule = "self.size() <= 3 && self.exists(x, x == 1)"))]
    ports: Vec<u16>,
}

// A field of a type the macro cannot see into is checked when the CRD is built: nothing here.
#[derive(serde::Serialize, CustomResourceSchema)]
#[kstruct(validation(rule = "self.inner.items.all(i, i.matches('^a'))"))]
#[kstruct(validation(rule = "self.list.all(i, i.items.all(x, x.matches('^a')))"))]
struct Opaque {
    inner: Inner,
    #[kstruct(max_items = 4)]
    list: Vec<Inner>,
}

#[derive(serde::Serialize, CustomResourceSchema)]
struct Inner {
    #[kstruct(max_items = 4, items(max_length = 8))]
    items: Vec<String>,
}

fn main() {}
