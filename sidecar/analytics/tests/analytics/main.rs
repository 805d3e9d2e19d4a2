//! The analytics crate's tests, one binary for all (fewer binaries to link, a faster CI):
//! `cargo test -p analytics --test analytics` (one area: add its module name, e.g. `acwr::`).

mod acwr;
mod efficiency_intensity_compare;
mod load;
mod mean_max;
mod pmc;
mod robustness;
