//! The demo catalog's makers, models and kinds of parts.

/// A maker, its models and the shape of its part numbers
/// (`#` a digit, `@` a letter, anything else printed as is).
pub struct BrandSpec {
    pub name: &'static str,
    pub slug: &'static str,
    pub part_format: &'static str,
    pub models: &'static [ModelSpec],
}

pub struct ModelSpec {
    pub name: &'static str,
    pub variants: &'static [&'static str],
}

pub struct CategorySpec {
    pub name: &'static str,
    pub slug: &'static str,
    pub kinds: &'static [KindSpec],
}

/// A subcategory and the parts listed in it.
pub struct KindSpec {
    pub name: &'static str,
    pub slug: &'static str,
    /// How the part is named in a product title.
    pub part_name: &'static str,
    /// New-part price range in rupees, GST included.
    pub price_range: (i64, i64),
    /// Delivery charge inside NCR in rupees; outside NCR is derived from it.
    pub delivery_ncr: i64,
}

macro_rules! models {
    ($($name:literal => [$($v:literal),+]),+ $(,)?) => {
        &[$(ModelSpec { name: $name, variants: &[$($v),+] }),+]
    };
}

macro_rules! kinds {
    ($($name:literal, $slug:literal, $part:literal, $low:literal..$high:literal, $delivery:literal);+ $(;)?) => {
        &[$(KindSpec { name: $name, slug: $slug, part_name: $part, price_range: ($low, $high), delivery_ncr: $delivery }),+]
    };
}

/// The eight makers of the footer, in its order.
pub const BRANDS: &[BrandSpec] = &[
    BrandSpec {
        name: "Audi",
        slug: "audi",
        part_format: "##@ ### ### @",
        models: models![
        "A4 B9" => ["35 TDI", "40 TFSI"], "A6 C8" => ["45 TFSI", "40 TDI"],
        "Q5 FY" => ["45 TFSI quattro", "40 TDI quattro"], "Q7 4M" => ["45 TDI", "55 TFSI"]],
    },
    BrandSpec {
        name: "BMW",
        slug: "bmw",
        part_format: "## ## # ### ###",
        models: models![
        "3 Series G20" => ["320d", "330i"], "5 Series G30" => ["520d", "530i"],
        "X1 F48" => ["sDrive20d", "sDrive20i"], "X5 G05" => ["xDrive30d", "xDrive40i"]],
    },
    BrandSpec {
        name: "Mercedes-Benz",
        slug: "mercedes-benz",
        part_format: "A ### ### ## ##",
        models: models![
        "C-Class W205" => ["C 220 d", "C 200"], "E-Class W213" => ["E 220 d", "E 350"],
        "GLA H247" => ["GLA 200", "GLA 220 d"], "GLE W167" => ["GLE 300 d", "GLE 450"]],
    },
    BrandSpec {
        name: "Jaguar",
        slug: "jaguar",
        part_format: "@#@####",
        models: models![
        "XF X260" => ["2.0 Diesel", "2.0 Petrol"], "XE X760" => ["R-Dynamic S", "SE"],
        "F-Pace X761" => ["R-Dynamic S", "SVR"]],
    },
    BrandSpec {
        name: "Range Rover",
        slug: "range-rover",
        part_format: "LR1#####",
        models: models![
        "Evoque L551" => ["D180", "P250"], "Velar L560" => ["D300", "P250"],
        "Sport L494" => ["SDV6", "P400e"]],
    },
    BrandSpec {
        name: "Land Rover",
        slug: "land-rover",
        part_format: "LR0#####",
        models: models![
        "Discovery Sport L550" => ["D180", "P250"], "Defender L663" => ["D300", "P400"],
        "Freelander 2 L359" => ["TD4", "Si4"]],
    },
    BrandSpec {
        name: "Volvo",
        slug: "volvo",
        part_format: "3#######",
        models: models![
        "XC60" => ["D5", "B5"], "XC90" => ["D5", "T8"], "S60" => ["T4", "D4"], "S90" => ["D4", "B5"]],
    },
    BrandSpec {
        name: "Porsche",
        slug: "porsche",
        part_format: "9@# ### ### ##",
        models: models![
        "Cayenne 9Y0" => ["V6", "E-Hybrid"], "Macan 95B" => ["S", "GTS"], "Panamera 971" => ["4", "4S"]],
    },
];

pub const CATEGORIES: &[CategorySpec] = &[
    CategorySpec {
        name: "Engine",
        slug: "engine",
        kinds: kinds![
        "Engine Assembly", "engine-assembly", "Complete Engine Assembly", 250_000..900_000, 2_500;
        "Cylinder Head", "cylinder-head", "Cylinder Head", 45_000..160_000, 600;
        "Timing Chain Kit", "timing-chain-kit", "Timing Chain Kit", 9_000..40_000, 200;
        "Oil Pump", "oil-pump", "Engine Oil Pump", 6_000..25_000, 200;
        "Others", "others", "Engine Mount", 3_000..15_000, 200],
    },
    CategorySpec {
        name: "Brakes",
        slug: "brakes",
        kinds: kinds![
        "Brake Disc", "brake-disc", "Front Brake Disc", 6_000..28_000, 250;
        "Brake Pads", "brake-pads", "Front Brake Pad Set", 3_500..14_000, 120;
        "Brake Caliper", "brake-caliper", "Brake Caliper", 12_000..55_000, 250;
        "ABS Module", "abs-module", "ABS Control Module", 25_000..90_000, 200],
    },
    CategorySpec {
        name: "Suspension & Steering",
        slug: "suspension-steering",
        kinds: kinds![
        "Shock Absorber", "shock-absorber", "Front Shock Absorber", 9_000..45_000, 300;
        "Air Suspension", "air-suspension", "Air Suspension Strut", 45_000..160_000, 400;
        "Control Arm", "control-arm", "Lower Control Arm", 7_000..30_000, 250;
        "Steering Rack", "steering-rack", "Power Steering Rack", 35_000..140_000, 500],
    },
    CategorySpec {
        name: "Transmission",
        slug: "transmission",
        kinds: kinds![
        "Gearbox", "gearbox", "Automatic Gearbox", 180_000..650_000, 2_000;
        "Clutch Kit", "clutch-kit", "Clutch Kit", 18_000..60_000, 350;
        "Torque Converter", "torque-converter", "Torque Converter", 40_000..120_000, 500;
        "Propeller Shaft", "propeller-shaft", "Propeller Shaft", 30_000..110_000, 700],
    },
    CategorySpec {
        name: "Electrical",
        slug: "electrical",
        kinds: kinds![
        "Alternator", "alternator", "Alternator", 18_000..70_000, 250;
        "Starter Motor", "starter-motor", "Starter Motor", 14_000..50_000, 250;
        "ECU", "ecu", "Engine Control Unit", 40_000..160_000, 200;
        "Sensors", "sensors", "Parking Sensor", 2_500..12_000, 100],
    },
    CategorySpec {
        name: "Lighting",
        slug: "lighting",
        kinds: kinds![
        "Headlamp", "headlamp", "LED Headlamp", 35_000..220_000, 450;
        "Tail Lamp", "tail-lamp", "Tail Lamp", 12_000..60_000, 300;
        "Fog Lamp", "fog-lamp", "Fog Lamp", 4_000..18_000, 150],
    },
    CategorySpec {
        name: "Body Parts",
        slug: "body-parts",
        kinds: kinds![
        "Bumper", "bumper", "Front Bumper", 25_000..120_000, 1_200;
        "Bonnet", "bonnet", "Bonnet", 40_000..150_000, 1_500;
        "Wing Mirror", "wing-mirror", "Wing Mirror Assembly", 15_000..75_000, 300;
        "Others", "others", "Front Grille", 12_000..55_000, 600],
    },
    CategorySpec {
        name: "Cooling",
        slug: "cooling",
        kinds: kinds![
        "Radiator", "radiator", "Radiator", 14_000..60_000, 450;
        "Water Pump", "water-pump", "Water Pump", 6_000..30_000, 200;
        "Thermostat", "thermostat", "Thermostat Housing", 3_000..15_000, 120;
        "Intercooler", "intercooler", "Intercooler", 18_000..70_000, 450],
    },
    CategorySpec {
        name: "Filters & Service",
        slug: "filters-service",
        kinds: kinds![
        "Oil Filter", "oil-filter", "Oil Filter", 900..4_000, 80;
        "Air Filter", "air-filter", "Air Filter", 1_500..7_000, 100;
        "Cabin Filter", "cabin-filter", "Cabin Air Filter", 1_200..6_000, 80;
        "Fuel Filter", "fuel-filter", "Fuel Filter", 1_800..9_000, 80],
    },
    CategorySpec {
        name: "Interior",
        slug: "interior",
        kinds: kinds![
        "Seats", "seats", "Front Seat", 35_000..180_000, 1_500;
        "Steering Wheel", "steering-wheel", "Steering Wheel", 25_000..95_000, 400;
        "Infotainment", "infotainment", "Infotainment Display", 40_000..200_000, 350],
    },
    CategorySpec {
        name: "Exhaust",
        slug: "exhaust",
        kinds: kinds![
        "Catalytic Converter", "catalytic-converter", "Catalytic Converter", 45_000..180_000, 700;
        "DPF", "dpf", "Diesel Particulate Filter", 60_000..220_000, 700;
        "Silencer", "silencer", "Rear Silencer", 18_000..80_000, 800],
    },
    CategorySpec {
        name: "Fuel System",
        slug: "fuel-system",
        kinds: kinds![
        "Fuel Pump", "fuel-pump", "High Pressure Fuel Pump", 25_000..95_000, 250;
        "Injector", "injector", "Fuel Injector", 9_000..38_000, 120;
        "Turbocharger", "turbocharger", "Turbocharger", 60_000..240_000, 600],
    },
];
