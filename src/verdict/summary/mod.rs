//! The words around the verdict's statements in the charts and the reports: the chart
//! captions, latency in words, the AVS plan's captions and the estate's summary.

pub mod avs;
mod charts;
pub mod estate;
pub mod latency;

pub use charts::{
    LAYOUTS_COST_NOTE, ceilings_caption, compare_caption, io_size_caption, latency_caption,
    latency_target_notes, layouts_caption, scaling_caption,
};
