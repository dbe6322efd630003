package gen

// featureList names every construct Program.Features can report.
var featureList = []string{}
