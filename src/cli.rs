//! Command-line tools: read input, call the engine, print JSON; exit 2 on bad input.

use crate::engine;
use std::io::Read;
use std::process::ExitCode;

/// Reads FILE (or stdin for `-`) as text; the error says what could not be read.
pub fn read_input(file: &str) -> Result<String, String> {
    let mut text = String::new();
    if file == "-" {
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    }
    Ok(text)
}

/// Parses Scenario JSON; errors name the field path and what to fix.
pub fn parse_scenario(text: &str) -> Result<engine::Scenario, String> {
    let de = &mut serde_json::Deserializer::from_str(text);
    let scenario: engine::Scenario = serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path.is_empty() {
            format!("scenario JSON: {inner}")
        } else {
            format!("{path}: {inner}")
        }
    })?;
    scenario.validate().map_err(|e| e.to_string())?;
    Ok(scenario)
}

/// `volplan evaluate FILE`: Scenario JSON in, Evaluation JSON out.
pub fn evaluate(file: &str) -> ExitCode {
    let result = read_input(file)
        .and_then(|text| parse_scenario(&text))
        .and_then(|s| engine::evaluate(&s).map_err(|e| e.to_string()));
    match result {
        Ok(ev) => match serde_json::to_string_pretty(&ev) {
            Ok(json) => {
                println!("{json}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write the evaluation: {e}");
                ExitCode::FAILURE
            }
        },
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
