// SPDX-License-Identifier: GPL-2.0
/*
 * validate-objects.js NODE_MODULES FILE...: every object in the YAML
 * FILEs against the Kubernetes API's schemas, offline, with the npm
 * packages kubernetes-models (the API's OpenAPI schemas compiled into
 * validators) and yaml.  The schemas let unknown fields through, as the
 * API server does without strict validation, and a misspelt
 * readOnlyRootFilesystem would silently be no setting at all; so every
 * field is also looked up in the model's type declarations, which list
 * the fields of each type.  Prints one line per object, "ok FILE KIND
 * NAME" or "invalid FILE KIND NAME: why"; then, for each DaemonSet, a
 * line "facts NAME " and JSON of what tests/k8s/test_kubernetes.sh
 * checks.  Exit 1 when an object is invalid.
 */
"use strict";
const fs = require("fs");
const path = require("path");

const modules = path.resolve(process.argv[2]);
const files = process.argv.slice(3);
const YAML = require(path.join(modules, "yaml"));
const models = path.join(modules, "kubernetes-models");

/* A type declaration file: its fields, and the file of each field's type. */
const declared = new Map();
function declaration(file) {
	if (declared.has(file))
		return declared.get(file);
	let text;
	try {
		text = fs.readFileSync(file, "utf8");
	} catch (e) {
		declared.set(file, null);
		return null;
	}
	const imports = new Map();
	for (const m of text.matchAll(/^import \{ (\w+) \} from "([^"]+)";$/gm)) {
		const spec = m[2];
		imports.set(m[1], spec.startsWith(".") ?
			path.join(path.dirname(file), spec + ".d.ts") :
			path.join(modules, spec + ".d.ts"));
	}
	const body = text.match(/^export interface \w+(?: extends [\w, ]+)? \{\n([\s\S]*?)^\}/m);
	if (!body) {
		declared.set(file, null);
		return null;
	}
	const fields = new Map();
	/* a map's type ("{ [key: string]: string }") spans lines: no fields */
	for (const m of body[1].matchAll(/^ {4}"([^"]+)"\??: (.*?);?$/gm)) {
		const type = m[2].match(/^(?:Array<)?(\w+)>?$/);
		fields.set(m[1], type && imports.get(type[1]) || null);
	}
	declared.set(file, fields);
	return fields;
}

/* Every field of @value that its type does not declare, by its path. */
function unknown(value, file, where, out) {
	const fields = declaration(file);
	if (!fields || value === null || typeof value !== "object")
		return out;
	if (Array.isArray(value)) {
		value.forEach((v, i) => unknown(v, file, `${where}/${i}`, out));
		return out;
	}
	for (const [key, v] of Object.entries(value)) {
		if (!fields.has(key))
			out.push(`${where}/${key} is no field of ${path.basename(file, ".d.ts")}`);
		else if (fields.get(key))
			unknown(v, fields.get(key), `${where}/${key}`, out);
	}
	return out;
}

function modelFile(obj) {
	const api = String(obj.apiVersion || "");
	return path.join(models, ...api.split("/"), String(obj.kind || ""));
}

/* What the test asserts about a DaemonSet's pod. */
function facts(ds) {
	const pod = ds.spec.template.spec;
	const c = pod.containers[0];
	const sc = c.securityContext || {};
	const volume = (name) => (pod.volumes || []).find((v) => v.name === name) || {};
	const mounts = (c.volumeMounts || []).map((m) => ({
		path: m.mountPath,
		readOnly: !!m.readOnly,
		hostPath: (volume(m.name).hostPath || {}).path || null,
	}));
	return {
		privileged: !!sc.privileged,
		allowPrivilegeEscalation: sc.allowPrivilegeEscalation,
		readOnlyRootFilesystem: !!sc.readOnlyRootFilesystem,
		capabilitiesDropped: (sc.capabilities || {}).drop || [],
		token: pod.automountServiceAccountToken,
		mounts,
		command: [...(c.command || []), ...(c.args || [])].join(" "),
		name: ds.metadata.name,
		selector: ds.spec.selector.matchLabels,
		terms: ((((pod.affinity || {}).nodeAffinity || {})
			.requiredDuringSchedulingIgnoredDuringExecution || {}).nodeSelectorTerms || [])
			.map((t) => t.matchExpressions || []),
		liveness: !!c.livenessProbe,
		limits: (c.resources || {}).limits || {},
	};
}

let bad = 0;
for (const file of files) {
	let docs;
	try {
		docs = YAML.parseAllDocuments(fs.readFileSync(file, "utf8"));
	} catch (e) {
		console.log(`invalid ${file}: ${e.message}`);
		bad++;
		continue;
	}
	for (const doc of docs) {
		if (doc.errors.length) {
			console.log(`invalid ${file}: ${doc.errors[0].message}`);
			bad++;
			continue;
		}
		const obj = doc.toJS();
		const name = `${file} ${obj && obj.kind} ${obj && obj.metadata && obj.metadata.name}`;
		let Model;
		try {
			Model = require(modelFile(obj))[obj.kind];
		} catch (e) {
			Model = null;
		}
		if (!Model) {
			console.log(`invalid ${name}: no kind ${obj && obj.kind} in ${obj && obj.apiVersion}`);
			bad++;
			continue;
		}
		const why = [];
		try {
			new Model(obj).validate();
		} catch (e) {
			why.push(e.message);
		}
		unknown(obj, modelFile(obj) + ".d.ts", "", why);
		if (why.length) {
			console.log(`invalid ${name}: ${why.join("; ")}`);
			bad++;
			continue;
		}
		console.log(`ok ${name}`);
		if (obj.kind === "DaemonSet")
			console.log(`facts ${path.basename(file)} ${JSON.stringify(facts(obj))}`);
	}
}
process.exit(bad ? 1 : 0);
