console.log("indusr 0.1.0");
