use kstruct::CustomResourceSchema;

#[derive(serde::Serialize, CustomResourceSchema)]
enum Mode {
    #[kstruct(description = "off")]
    Off,
    On(u8),
}

#[derive(serde::Serialize, CustomResourceSchema)]
#[serde(tag = "type")]
enum Probe {
    #[kstruct(min_properties = 1)]
    Tcp { port: u16 },
}

fn main() {}
