//! Reports and charts: what a scenario's evaluation looks like on a page, on paper and in files.

pub mod avs;
pub mod charts;
pub mod csv;
pub mod estate;
pub mod html;
pub mod json;
pub mod latency;
pub mod md;
pub mod model;
pub mod pdf;
pub mod pdf_chart;
pub mod sources;
pub mod summary;
pub mod svg_writer;
pub mod xlsx;
