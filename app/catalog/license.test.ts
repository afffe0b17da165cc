import { describe, expect, it } from "vitest";
import { licenseText, namedLicenseOf } from "#app/catalog/license.ts";

describe("a licence the card names", () => {
  it("reads license_name, and links license_link only when it is an http(s) URL", () => {
    // Qwen/Qwen2-72B-Instruct's card data in the bundled catalogue.
    const qwen = { license: "other", license_name: "tongyi-qianwen", license_link: "https://huggingface.co/Qwen/Qwen2-72B-Instruct/blob/main/LICENSE" };
    expect(namedLicenseOf(qwen, "other")).toEqual({ name: "tongyi-qianwen", href: "https://huggingface.co/Qwen/Qwen2-72B-Instruct/blob/main/LICENSE" });
    expect(licenseText("other", namedLicenseOf(qwen, "other"))).toBe("other (tongyi-qianwen)");
    // QuantFactory/Meta-Llama-3-8B-GGUF: a repo-relative link is not a URL to follow from here.
    expect(namedLicenseOf({ license: "other", license_name: "llama3", license_link: "LICENSE" }, "other")).toEqual({ name: "llama3", href: null });
    expect(namedLicenseOf({ license_name: "x", license_link: "javascript:alert(1)" }, "other")?.href).toBeNull();
  });

  it("is nothing without a name, and repeats no id", () => {
    expect(namedLicenseOf({ license: "mit", license_link: "https://example.com/LICENSE" }, "mit")).toBeNull();
    expect(namedLicenseOf(null, "mit")).toBeNull();
    expect(namedLicenseOf({ license_name: "llama3" }, null)).toBeNull();
    expect(namedLicenseOf({ license_name: "llama3" }, "llama3")).toBeNull();
    expect(namedLicenseOf({ license_name: "  " }, "other")).toBeNull();
    expect(licenseText("mit", null)).toBe("mit");
  });
});
