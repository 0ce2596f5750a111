export const A = () => <div><span></div
const y = <<>
