//! The parts of a multipart form, read whole: every page that takes an upload reads its
//! form through [`parts`] and keeps the parts its form names.

use axum::body::Bytes;
use axum::extract::Multipart;
use axum::extract::multipart::MultipartError;

/// Longest file name kept, characters.
const MAX_FILE_NAME: usize = 120;

/// One part of a multipart form.
pub struct Part {
    pub name: String,
    /// The file name the browser sent, control characters dropped and cut to
    /// [`MAX_FILE_NAME`]; None when absent or empty.
    pub file_name: Option<String>,
    pub bytes: Bytes,
}

impl Part {
    /// The part as text, bytes that are not UTF-8 replaced.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Every part of `mp`, in the order sent.
pub async fn parts(mut mp: Multipart) -> Result<Vec<Part>, MultipartError> {
    let mut out = Vec::new();
    while let Some(field) = mp.next_field().await? {
        let name = field.name().unwrap_or("").to_owned();
        let file_name = field
            .file_name()
            .map(|n| {
                n.chars()
                    .filter(|c| !c.is_control())
                    .take(MAX_FILE_NAME)
                    .collect::<String>()
            })
            .filter(|n| !n.is_empty());
        let bytes = field.bytes().await?;
        out.push(Part {
            name,
            file_name,
            bytes,
        });
    }
    Ok(out)
}
