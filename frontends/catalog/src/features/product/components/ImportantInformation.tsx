// The shop's terms every buyer should read before ordering a part: transit, warranty, refunds.
export function ImportantInformation() {
  return (
    <section className="important-information" aria-labelledby="important-information">
      <h2 id="important-information">Important Information</h2>
      <ul>
        <li>
          <strong>Liability.</strong> We cannot refund damage that happens in transit. If you prefer, you are welcome
          to collect the part from us yourself.
        </li>
        <li>
          <strong>Gearbox and engine warranty.</strong> The warranty does not cover racing, taxi, off-road or modified
          use, nor remapped engines. The unit must be fitted by a certified garage, and you need proof of that fitting.
          Gearboxes and engines are shipped without fluids.
        </li>
        <li>
          <strong>Refunds.</strong> Depending on the item, the warranty runs from 2 to 15 days. Return a faulty part
          together with its invoice. Whether it is replaced is at the seller&apos;s discretion; when it is not, you
          receive a credit note valid for 6 months.
        </li>
      </ul>
    </section>
  );
}
